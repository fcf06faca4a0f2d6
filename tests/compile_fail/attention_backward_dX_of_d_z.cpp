// Mistake: Algorithm 4's input gradient dX written into a (d_z, l_x) buffer.
// ∂loss/∂X has X's shape (d_x, l_x); d_x and d_z are different dimensions even when both are 8.
// Fix: dX (d_x, l_x).
// fixed: mat<float, d_z<8>, l_x<8>>& dX => X_t& dX
// covers: nn::backward[Attention](dX)
// expect: in::Algorithm_4_attention_backward
// first-error: typeformer::dX_rows<typeformer::d_z<8, typeformer::X_rows<typeformer::d_x<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using attention = nn::Attention<float, d_x<8>, d_z<8>, d_attn<4>, d_out<8>>;
using X_t = mat<float, d_x<8>, l_x<8>>;
using Z_t = mat<float, d_z<8>, l_z<8>>;
using V_t = mat<float, d_out<8>, l_x<8>>;

 void attend(const attention& p, const X_t& X, const Z_t& Z, const V_t& dVt, mat<float, d_z<8>, l_x<8>>& dX, mat<float, d_z<8>, l_z<8>>& dZ, attention& g, const attention::cache<l_x<8>, l_z<8>>& c, attention::scratch<l_x<8>, l_z<8>>& s) {
     nn::backward(p, X, Z, mask_bidirectional{}, dVt, dX, dZ, g, c, s);  // error here
 }
