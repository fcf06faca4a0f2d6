// Mistake: cross-attention with the parameters of a wider MHAttention (d_e = 32).
// Algorithm 5 multiplies X (d_x, l_x) by W_q (H·d_attn, d_x): W_q of a block over d_x = 32 does
// not take this X, whose d_x is 16.
// Fix: the block of this layer (MHA over d_e = 16).
// fixed: const nn::MHAttention<float, d_e<32>, d_e<32>, d_attn<8>, d_mid<8>, d_e<32>, H<2>>& p => const MHA& p
// covers: nn::forward[MHAttention](p X)
// expect: in::Algorithm_5_MHAttention
// first-error: typeformer::X_rows<typeformer::d_e<16, typeformer::W_q_cols<typeformer::d_e<32
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using MHA = nn::MHAttention<float, d_e<16>, d_e<16>, d_attn<8>, d_mid<8>, d_e<16>, H<2>>;
using X_t = mat<float, d_e<16>, l_x<8>>;
using Z_t = mat<float, d_e<16>, l_z<8>>;

 void attend(const nn::MHAttention<float, d_e<32>, d_e<32>, d_attn<8>, d_mid<8>, d_e<32>, H<2>>& p, const X_t& X, const Z_t& Z, X_t& Vt, MHA::cache<l_x<8>, l_z<8>>& c) {
     nn::forward(p, X, Z, mask_bidirectional{}, Vt, c);  // error here
 }
