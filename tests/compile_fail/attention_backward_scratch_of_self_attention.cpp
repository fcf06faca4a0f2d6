// Mistake: Algorithm 4's backward with a scratch sized for self-attention.
// The scratch holds dK, dV (l_z) and dS (l_z, l_x).
// Fix: attention::scratch<l_x<8>, l_z<8>>.
// fixed: attention::scratch<l_x<8>, l_x<8>>& s => attention::scratch<l_x<8>, l_z<8>>& s
// covers: nn::backward[Attention](s)
// expect: in::Algorithm_4_attention_backward
// first-error: typeformer::cache_given<typeformer::nn::Attention<float, typeformer::d_x<8>, typeformer::d_z<8>, typeformer::d_attn<4>, typeformer::d_out<8, ::scratch<typeformer::l_x<8>, typeformer::l_x<8, typeformer::cache_expected<typeformer::nn::Attention<float, typeformer::d_x<8>, typeformer::d_z<8>, typeformer::d_attn<4>, typeformer::d_out<8, ::scratch<typeformer::l_x<8>, typeformer::l_z<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using attention = nn::Attention<float, d_x<8>, d_z<8>, d_attn<4>, d_out<8>>;
using X_t = mat<float, d_x<8>, l_x<8>>;
using Z_t = mat<float, d_z<8>, l_z<8>>;
using V_t = mat<float, d_out<8>, l_x<8>>;

 void attend(const attention& p, const X_t& X, const Z_t& Z, const V_t& dVt, X_t& dX, mat<float, d_z<8>, l_z<8>>& dZ, attention& g, const attention::cache<l_x<8>, l_z<8>>& c, attention::scratch<l_x<8>, l_x<8>>& s) {
     nn::backward(p, X, Z, mask_bidirectional{}, dVt, dX, dZ, g, c, s);  // error here
 }
