// Mistake: Algorithm 4's gradients accumulated into those of a head with d_attn = 8.
// The gradients have the head's shapes: W_q (d_attn, d_x) with d_attn = 4 here.
// Fix: grads of the head's own type.
// fixed: nn::Attention<float, d_x<8>, d_z<8>, d_attn<8>, d_out<8>>& g => attention& g
// covers: nn::backward[Attention](grads)
// expect: in::Algorithm_4_attention_backward
// first-error: typeformer::grads<typeformer::nn::Attention<float, typeformer::d_x<8>, typeformer::d_z<8>, typeformer::d_attn<8>, typeformer::d_out<8, typeformer::block<typeformer::nn::Attention<float, typeformer::d_x<8>, typeformer::d_z<8>, typeformer::d_attn<4>, typeformer::d_out<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using attention = nn::Attention<float, d_x<8>, d_z<8>, d_attn<4>, d_out<8>>;
using X_t = mat<float, d_x<8>, l_x<8>>;
using Z_t = mat<float, d_z<8>, l_z<8>>;
using V_t = mat<float, d_out<8>, l_x<8>>;

 void attend(const attention& p, const X_t& X, const Z_t& Z, const V_t& dVt, X_t& dX, mat<float, d_z<8>, l_z<8>>& dZ, nn::Attention<float, d_x<8>, d_z<8>, d_attn<8>, d_out<8>>& g, const attention::cache<l_x<8>, l_z<8>>& c, attention::scratch<l_x<8>, l_z<8>>& s) {
     nn::backward(p, X, Z, mask_bidirectional{}, dVt, dX, dZ, g, c, s);  // error here
 }
