// Mistake: MHAttention's input gradient written into a buffer over the context (l_z).
// ∂loss/∂X has X's shape (d_x, l_x).
// Fix: dX (d_x, l_x).
// fixed: Z_t& dX => X_t& dX
// covers: nn::backward[MHAttention](dX)
// expect: in::Algorithm_5_MHAttention_backward
// first-error: typeformer::dX_cols<typeformer::l_z<8, typeformer::X_cols<typeformer::l_x<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using MHA = nn::MHAttention<float, d_e<16>, d_e<16>, d_attn<8>, d_mid<8>, d_e<16>, H<2>>;
using X_t = mat<float, d_e<16>, l_x<8>>;
using Z_t = mat<float, d_e<16>, l_z<8>>;

 void attend(const MHA& p, const X_t& X, const Z_t& Z, const X_t& dVt, Z_t& dX, Z_t& dZ, MHA& g, const MHA::cache<l_x<8>, l_z<8>>& c, MHA::scratch<l_x<8>, l_z<8>>& s) {
     nn::backward(p, X, Z, mask_bidirectional{}, dVt, dX, dZ, g, c, s);  // error here
 }
