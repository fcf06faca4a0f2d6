// Mistake: the MLP's backward with the cache of the context's MLP (l_z).
// The cache holds the hidden activations of each column of the X that ran forward: l_x columns
// here.
// Fix: MLP::cache<l_x<8>>, the forward pass's.
// fixed: MLP::cache<l_z<8>> => MLP::cache<l_x<8>>
// covers: nn::backward[mlp](c)
// expect: in::MLP_backward
// first-error: typeformer::cache_given<typeformer::nn::mlp<float, typeformer::d_e<16>, typeformer::d_mlp<64>, typeformer::nn::relu>::cache<typeformer::l_z<8, typeformer::cache_expected<typeformer::nn::mlp<float, typeformer::d_e<16>, typeformer::d_mlp<64>, typeformer::nn::relu>::cache<typeformer::l_x<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using MLP = nn::mlp<float, d_e<16>, d_mlp<64>, nn::relu>;
using stream = mat<float, d_e<16>, l_x<8>>;
using hidden = mat<float, d_mlp<64>, l_x<8>>;

 void back(const MLP& p, const stream& X, const stream& dY, stream& dX, MLP& grads, const MLP::cache<l_z<8>>& c,
           MLP::scratch<l_x<8>>& s) {
     nn::backward(p, X, dY, dX, grads, c, s);  // error here
 }
