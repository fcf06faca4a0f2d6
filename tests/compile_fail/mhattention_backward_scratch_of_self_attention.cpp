// Mistake: cross-attention's backward with a scratch sized for self-attention.
// The scratch holds dK, dV (l_z) and dS (l_z, l_x): self-attention's has l_x for l_z.
// Fix: MHA::scratch<l_x<8>, l_z<8>>.
// fixed: MHA::scratch<l_x<8>, l_x<8>>& s => MHA::scratch<l_x<8>, l_z<8>>& s
// covers: nn::backward[MHAttention](s)
// expect: in::Algorithm_5_MHAttention_backward
// first-error: typeformer::cache_given<typeformer::nn::MHAttention<float, typeformer::d_e<16>, typeformer::d_e<16>, typeformer::d_attn<8>, typeformer::d_mid<8>, typeformer::d_e<16>, typeformer::H<2, ::scratch<typeformer::l_x<8>, typeformer::l_x<8, typeformer::cache_expected<typeformer::nn::MHAttention<float, typeformer::d_e<16>, typeformer::d_e<16>, typeformer::d_attn<8>, typeformer::d_mid<8>, typeformer::d_e<16>, typeformer::H<2, ::scratch<typeformer::l_x<8>, typeformer::l_z<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using MHA = nn::MHAttention<float, d_e<16>, d_e<16>, d_attn<8>, d_mid<8>, d_e<16>, H<2>>;
using X_t = mat<float, d_e<16>, l_x<8>>;
using Z_t = mat<float, d_e<16>, l_z<8>>;

 void attend(const MHA& p, const X_t& X, const Z_t& Z, const X_t& dVt, X_t& dX, Z_t& dZ, MHA& g, const MHA::cache<l_x<8>, l_z<8>>& c, MHA::scratch<l_x<8>, l_x<8>>& s) {
     nn::backward(p, X, Z, mask_bidirectional{}, dVt, dX, dZ, g, c, s);  // error here
 }
