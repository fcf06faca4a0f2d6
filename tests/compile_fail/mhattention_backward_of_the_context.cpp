// Mistake: MHAttention's backward given the context Z as X.
// backward reads the queries' input X (d_e, l_x); Z (d_e, l_z) is the other sequence.
// Fix: X, the stream the forward pass read.
// fixed: const Z_t& X => const X_t& X
// covers: nn::backward[MHAttention](X)
// expect: in::Algorithm_5_MHAttention_backward
// first-error: typeformer::dV_tilde_cols<typeformer::l_x<8, typeformer::X_cols<typeformer::l_z<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using MHA = nn::MHAttention<float, d_e<16>, d_e<16>, d_attn<8>, d_mid<8>, d_e<16>, H<2>>;
using X_t = mat<float, d_e<16>, l_x<8>>;
using Z_t = mat<float, d_e<16>, l_z<8>>;

 void attend(const MHA& p, const Z_t& X, const Z_t& Z, const X_t& dVt, X_t& dX, Z_t& dZ, MHA& g, const MHA::cache<l_x<8>, l_z<8>>& c, MHA::scratch<l_x<8>, l_z<8>>& s) {
     nn::backward(p, X, Z, mask_bidirectional{}, dVt, dX, dZ, g, c, s);  // error here
 }
