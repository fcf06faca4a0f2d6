// Mistake: the MLP's backward with the parameters of a wider MLP (d_mlp = 128).
// The backward multiplies by W_mlp2ᵀ and W_mlp1ᵀ of the block that ran forward: its cache and
// gradients have d_mlp = 64 rows, this block 128.
// Fix: the block that filled the cache (nn::mlp<float, d_e<16>, d_mlp<64>, nn::relu>).
// fixed: nn::mlp<float, d_e<16>, d_mlp<128>, nn::relu>& p => MLP& p
// covers: nn::backward[mlp](p grads)
// expect: in::MLP_backward
// first-error: typeformer::grads<typeformer::nn::mlp<float, typeformer::d_e<16>, typeformer::d_mlp<64>, typeformer::nn::relu, typeformer::block<typeformer::nn::mlp<float, typeformer::d_e<16>, typeformer::d_mlp<128>, typeformer::nn::relu
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using MLP = nn::mlp<float, d_e<16>, d_mlp<64>, nn::relu>;
using stream = mat<float, d_e<16>, l_x<8>>;
using hidden = mat<float, d_mlp<64>, l_x<8>>;

 void back(const nn::mlp<float, d_e<16>, d_mlp<128>, nn::relu>& p, const stream& X, const stream& dY, stream& dX,
           MLP& grads, const MLP::cache<l_x<8>>& c, MLP::scratch<l_x<8>>& s) {
     nn::backward(p, X, dY, dX, grads, c, s);  // error here
 }
