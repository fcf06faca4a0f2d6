// Mistake: the ReLU MLP's gradients accumulated into those of a GELU MLP.
// The activation is part of the block's type: a GELU MLP's gradients are another block's, even of
// the same shapes.
// Fix: grads of the block's own type.
// fixed: nn::mlp<float, d_e<16>, d_mlp<64>, nn::gelu>& grads => MLP& grads
// covers: nn::backward[mlp](grads)
// expect: in::MLP_backward
// first-error: typeformer::grads<typeformer::nn::mlp<float, typeformer::d_e<16>, typeformer::d_mlp<64>, typeformer::nn::gelu, typeformer::block<typeformer::nn::mlp<float, typeformer::d_e<16>, typeformer::d_mlp<64>, typeformer::nn::relu
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using MLP = nn::mlp<float, d_e<16>, d_mlp<64>, nn::relu>;
using stream = mat<float, d_e<16>, l_x<8>>;
using hidden = mat<float, d_mlp<64>, l_x<8>>;

 void back(const MLP& p, const stream& X, const stream& dY, stream& dX, nn::mlp<float, d_e<16>, d_mlp<64>, nn::gelu>& grads,
           const MLP::cache<l_x<8>>& c, MLP::scratch<l_x<8>>& s) {
     nn::backward(p, X, dY, dX, grads, c, s);  // error here
 }
