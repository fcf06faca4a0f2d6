// Mistake: Algorithm 4's backward given the context Z as the queries' input X.
// X (d_x, l_x) and Z (d_z, l_z) are different sequences: the cache's Q has l_x columns.
// Fix: X, as in the forward pass.
// fixed: const mat<float, d_x<8>, l_z<8>>& X => const X_t& X
// covers: nn::backward[Attention](X)
// expect: in::Algorithm_4_attention_backward
// first-error: typeformer::dV_tilde_cols<typeformer::l_x<8, typeformer::X_cols<typeformer::l_z<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using attention = nn::Attention<float, d_x<8>, d_z<8>, d_attn<4>, d_out<8>>;
using X_t = mat<float, d_x<8>, l_x<8>>;
using Z_t = mat<float, d_z<8>, l_z<8>>;
using V_t = mat<float, d_out<8>, l_x<8>>;

 void attend(const attention& p, const mat<float, d_x<8>, l_z<8>>& X, const Z_t& Z, const V_t& dVt, X_t& dX, mat<float, d_z<8>, l_z<8>>& dZ, attention& g, const attention::cache<l_x<8>, l_z<8>>& c, attention::scratch<l_x<8>, l_z<8>>& s) {
     nn::backward(p, X, Z, mask_bidirectional{}, dVt, dX, dZ, g, c, s);  // error here
 }
