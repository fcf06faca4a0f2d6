// Mistake: the MLP's backward with a scratch sized for the context (l_z).
// The scratch holds ∂loss/∂H (d_mlp, ℓ) of each column of X: l_x columns here.
// Fix: MLP::scratch<l_x<8>>.
// fixed: MLP::scratch<l_z<8>> => MLP::scratch<l_x<8>>
// covers: nn::backward[mlp](s)
// expect: in::MLP_backward
// first-error: typeformer::cache_given<typeformer::nn::mlp<float, typeformer::d_e<16>, typeformer::d_mlp<64>, typeformer::nn::relu>::scratch<typeformer::l_z<8, typeformer::cache_expected<typeformer::nn::mlp<float, typeformer::d_e<16>, typeformer::d_mlp<64>, typeformer::nn::relu>::scratch<typeformer::l_x<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using MLP = nn::mlp<float, d_e<16>, d_mlp<64>, nn::relu>;
using stream = mat<float, d_e<16>, l_x<8>>;
using hidden = mat<float, d_mlp<64>, l_x<8>>;

 void back(const MLP& p, const stream& X, const stream& dY, stream& dX, MLP& grads, const MLP::cache<l_x<8>>& c,
           MLP::scratch<l_z<8>>& s) {
     nn::backward(p, X, dY, dX, grads, c, s);  // error here
 }
