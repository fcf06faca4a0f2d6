// Mistake: the MLP's input gradient written into a (d_mlp, l_x) buffer.
// ∂loss/∂X has X's shape (d_e, ℓ).
// Fix: dX of the stream's shape.
// fixed: hidden& dX => stream& dX
// covers: nn::backward[mlp](dX)
// expect: in::MLP_backward
// first-error: typeformer::dX_rows<typeformer::d_mlp<64, typeformer::X_rows<typeformer::d_e<16
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using MLP = nn::mlp<float, d_e<16>, d_mlp<64>, nn::relu>;
using stream = mat<float, d_e<16>, l_x<8>>;
using hidden = mat<float, d_mlp<64>, l_x<8>>;

 void back(const MLP& p, const stream& X, const stream& dY, hidden& dX, MLP& grads, const MLP::cache<l_x<8>>& c,
           MLP::scratch<l_x<8>>& s) {
     nn::backward(p, X, dY, dX, grads, c, s);  // error here
 }
