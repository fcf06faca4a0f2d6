// Mistake: Algorithm 4 (cross-attention) run with a cache sized for self-attention.
// The cache keeps K, V (l_z) and the scores (l_z, l_x): one made for l_x × l_x does not hold l_z
// keys.
// Fix: attention::cache<l_x<8>, l_z<8>>.
// fixed: attention::cache<l_x<8>, l_x<8>>& c => attention::cache<l_x<8>, l_z<8>>& c
// covers: nn::forward[Attention](c)
// expect: in::Algorithm_4_attention
// first-error: typeformer::cache_given<typeformer::nn::Attention<float, typeformer::d_x<8>, typeformer::d_z<8>, typeformer::d_attn<4>, typeformer::d_out<8, ::cache<typeformer::l_x<8>, typeformer::l_x<8, typeformer::cache_expected<typeformer::nn::Attention<float, typeformer::d_x<8>, typeformer::d_z<8>, typeformer::d_attn<4>, typeformer::d_out<8, ::cache<typeformer::l_x<8>, typeformer::l_z<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using attention = nn::Attention<float, d_x<8>, d_z<8>, d_attn<4>, d_out<8>>;
using X_t = mat<float, d_x<8>, l_x<8>>;
using Z_t = mat<float, d_z<8>, l_z<8>>;
using V_t = mat<float, d_out<8>, l_x<8>>;

 void attend(const attention& p, const X_t& X, const Z_t& Z, V_t& Vt, attention::cache<l_x<8>, l_x<8>>& c) {
     nn::forward(p, X, Z, mask_bidirectional{}, Vt, c);  // error here
 }
