// Mistake: cross-attention (l_x × l_z) run with the cache of self-attention (l_x × l_x).
// The cache keeps Q (l_x), K and V (l_z) and the scores (l_z, l_x) for the backward pass: a cache
// made for self-attention has l_x where l_z is needed.
// Fix: MHA::cache<l_x<8>, l_z<8>>.
// fixed: MHA::cache<l_x<8>, l_x<8>>& c => MHA::cache<l_x<8>, l_z<8>>& c
// covers: nn::forward[MHAttention](c)
// expect: in::Algorithm_5_MHAttention
// first-error: typeformer::cache_given<typeformer::nn::MHAttention<float, typeformer::d_e<16>, typeformer::d_e<16>, typeformer::d_attn<8>, typeformer::d_mid<8>, typeformer::d_e<16>, typeformer::H<2, ::cache<typeformer::l_x<8>, typeformer::l_x<8, typeformer::cache_expected<typeformer::nn::MHAttention<float, typeformer::d_e<16>, typeformer::d_e<16>, typeformer::d_attn<8>, typeformer::d_mid<8>, typeformer::d_e<16>, typeformer::H<2, ::cache<typeformer::l_x<8>, typeformer::l_z<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using MHA = nn::MHAttention<float, d_e<16>, d_e<16>, d_attn<8>, d_mid<8>, d_e<16>, H<2>>;
using X_t = mat<float, d_e<16>, l_x<8>>;
using Z_t = mat<float, d_e<16>, l_z<8>>;

 void attend(const MHA& p, const X_t& X, const Z_t& Z, X_t& Vt, MHA::cache<l_x<8>, l_x<8>>& c) {
     nn::forward(p, X, Z, mask_bidirectional{}, Vt, c);  // error here
 }
