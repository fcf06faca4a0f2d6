// Mistake: cross-attention to a context Z of the encoder of a wider model (d_z = 32).
// K = W_k Z and V = W_v Z take Z (d_z, l_z) with W_k, W_v (H·d_attn, d_z): this block's d_z is 16.
// Fix: the context of this model's encoder (d_e = 16).
// fixed: const mat<float, d_e<32>, l_z<8>>& Z => const Z_t& Z
// covers: nn::forward[MHAttention](Z)
// expect: in::Algorithm_5_MHAttention
// first-error: typeformer::Z_rows<typeformer::d_e<32, typeformer::W_k_cols<typeformer::d_e<16
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using MHA = nn::MHAttention<float, d_e<16>, d_e<16>, d_attn<8>, d_mid<8>, d_e<16>, H<2>>;
using X_t = mat<float, d_e<16>, l_x<8>>;
using Z_t = mat<float, d_e<16>, l_z<8>>;

 void attend(const MHA& p, const X_t& X, const mat<float, d_e<32>, l_z<8>>& Z, X_t& Vt, MHA::cache<l_x<8>, l_z<8>>& c) {
     nn::forward(p, X, Z, mask_bidirectional{}, Vt, c);  // error here
 }
