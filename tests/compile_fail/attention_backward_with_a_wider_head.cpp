// Mistake: Algorithm 4's backward with a head of d_attn = 8 where the forward pass ran d_attn = 4.
// The cache holds Q, K (d_attn, ·) of the head that ran forward; W_q of d_attn = 8 rows is another
// head.
// Fix: the head that filled the cache.
// fixed: const nn::Attention<float, d_x<8>, d_z<8>, d_attn<8>, d_out<8>>& p => const attention& p
// covers: nn::backward[Attention](p)
// expect: in::Algorithm_4_attention_backward
// first-error: typeformer::grads<typeformer::nn::Attention<float, typeformer::d_x<8>, typeformer::d_z<8>, typeformer::d_attn<4>, typeformer::d_out<8, typeformer::block<typeformer::nn::Attention<float, typeformer::d_x<8>, typeformer::d_z<8>, typeformer::d_attn<8>, typeformer::d_out<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using attention = nn::Attention<float, d_x<8>, d_z<8>, d_attn<4>, d_out<8>>;
using X_t = mat<float, d_x<8>, l_x<8>>;
using Z_t = mat<float, d_z<8>, l_z<8>>;
using V_t = mat<float, d_out<8>, l_x<8>>;

 void attend(const nn::Attention<float, d_x<8>, d_z<8>, d_attn<8>, d_out<8>>& p, const X_t& X, const Z_t& Z, const V_t& dVt, X_t& dX, mat<float, d_z<8>, l_z<8>>& dZ, attention& g, const attention::cache<l_x<8>, l_z<8>>& c, attention::scratch<l_x<8>, l_z<8>>& s) {
     nn::backward(p, X, Z, mask_bidirectional{}, dVt, dX, dZ, g, c, s);  // error here
 }
