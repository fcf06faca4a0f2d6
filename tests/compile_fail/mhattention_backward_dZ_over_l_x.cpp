// Mistake: Algorithm 5's backward (cross-attention) accumulating ∂Z into a buffer over l_x.
// In Algorithm 8's cross-attention the keys and values come from Z (d_e, ℓ_z); ∂Z has Z's columns,
// l_z.
// Fix: a (d_e, l_z) ∂Z.
// fixed: X_t& dX, X_t& dZ, => X_t& dX, Z_t& dZ,
// covers: nn::backward[MHAttention](dZ Z)
// expect: in::Algorithm_5_MHAttention_backward
// first-error: dZ_cols<typeformer::l_x<8>, Z_cols<typeformer::l_z<8>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;
using MHA = nn::MHAttention<float, d_e<16>, d_e<16>, d_attn<8>, d_mid<8>, d_e<16>, H<2>>;
using X_t = mat<float, d_e<16>, l_x<8>>;
using Z_t = mat<float, d_e<16>, l_z<8>>;

void back(const MHA& a, const X_t& X, const Z_t& Z, const X_t& dV, X_t& dX, X_t& dZ, MHA& g,
          const MHA::cache<l_x<8>, l_z<8>>& c, MHA::scratch<l_x<8>, l_z<8>>& s) {
    nn::backward(a, X, Z, mask_bidirectional{}, dV, dX, dZ, g, c, s);  // error here
}
