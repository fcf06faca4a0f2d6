// Mistake: MHAttention's backward with the parameters of a block of 4 heads.
// The cache and gradients were made for H = 2 heads of d_attn = 8: a block of H = 4 has other W_q,
// W_k, W_v (H·d_attn, d_e) and W_o.
// Fix: the block that ran forward (H = 2).
// fixed: const nn::MHAttention<float, d_e<16>, d_e<16>, d_attn<8>, d_mid<8>, d_e<16>, H<4>>& p => const MHA& p
// covers: nn::backward[MHAttention](p)
// expect: in::Algorithm_5_MHAttention_backward
// first-error: typeformer::grads<typeformer::nn::MHAttention<float, typeformer::d_e<16>, typeformer::d_e<16>, typeformer::d_attn<8>, typeformer::d_mid<8>, typeformer::d_e<16>, typeformer::H<2, typeformer::block<typeformer::nn::MHAttention<float, typeformer::d_e<16>, typeformer::d_e<16>, typeformer::d_attn<8>, typeformer::d_mid<8>, typeformer::d_e<16>, typeformer::H<4
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using MHA = nn::MHAttention<float, d_e<16>, d_e<16>, d_attn<8>, d_mid<8>, d_e<16>, H<2>>;
using X_t = mat<float, d_e<16>, l_x<8>>;
using Z_t = mat<float, d_e<16>, l_z<8>>;

 void attend(const nn::MHAttention<float, d_e<16>, d_e<16>, d_attn<8>, d_mid<8>, d_e<16>, H<4>>& p, const X_t& X, const Z_t& Z, const X_t& dVt, X_t& dX, Z_t& dZ, MHA& g, const MHA::cache<l_x<8>, l_z<8>>& c, MHA::scratch<l_x<8>, l_z<8>>& s) {
     nn::backward(p, X, Z, mask_bidirectional{}, dVt, dX, dZ, g, c, s);  // error here
 }
