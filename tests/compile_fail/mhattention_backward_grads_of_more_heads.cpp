// Mistake: MHAttention's gradients accumulated into those of a 4-head block.
// The gradients have the parameters' shapes: H·d_attn = 16 rows in W_q here, 32 in a block of 4
// heads.
// Fix: grads of the block's own type.
// fixed: nn::MHAttention<float, d_e<16>, d_e<16>, d_attn<8>, d_mid<8>, d_e<16>, H<4>>& g => MHA& g
// covers: nn::backward[MHAttention](grads)
// expect: in::Algorithm_5_MHAttention_backward
// first-error: typeformer::grads<typeformer::nn::MHAttention<float, typeformer::d_e<16>, typeformer::d_e<16>, typeformer::d_attn<8>, typeformer::d_mid<8>, typeformer::d_e<16>, typeformer::H<4, typeformer::block<typeformer::nn::MHAttention<float, typeformer::d_e<16>, typeformer::d_e<16>, typeformer::d_attn<8>, typeformer::d_mid<8>, typeformer::d_e<16>, typeformer::H<2
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using MHA = nn::MHAttention<float, d_e<16>, d_e<16>, d_attn<8>, d_mid<8>, d_e<16>, H<2>>;
using X_t = mat<float, d_e<16>, l_x<8>>;
using Z_t = mat<float, d_e<16>, l_z<8>>;

 void attend(const MHA& p, const X_t& X, const Z_t& Z, const X_t& dVt, X_t& dX, Z_t& dZ, nn::MHAttention<float, d_e<16>, d_e<16>, d_attn<8>, d_mid<8>, d_e<16>, H<4>>& g, const MHA::cache<l_x<8>, l_z<8>>& c, MHA::scratch<l_x<8>, l_z<8>>& s) {
     nn::backward(p, X, Z, mask_bidirectional{}, dVt, dX, dZ, g, c, s);  // error here
 }
