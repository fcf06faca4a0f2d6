// Mistake: Algorithm 4's backward given a (d_attn, l_x) gradient as dṼ.
// Ṽ = V·A is (d_out, l_x): its gradient too; (d_attn, l_x) is Q's.
// Fix: dVt (d_out, l_x).
// fixed: const mat<float, d_attn<4>, l_x<8>>& dVt => const V_t& dVt
// covers: nn::backward[Attention](dVt)
// expect: in::Algorithm_4_attention_backward
// first-error: typeformer::dV_tilde_rows<typeformer::d_attn<4, typeformer::W_v_rows<typeformer::d_out<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using attention = nn::Attention<float, d_x<8>, d_z<8>, d_attn<4>, d_out<8>>;
using X_t = mat<float, d_x<8>, l_x<8>>;
using Z_t = mat<float, d_z<8>, l_z<8>>;
using V_t = mat<float, d_out<8>, l_x<8>>;

 void attend(const attention& p, const X_t& X, const Z_t& Z, const mat<float, d_attn<4>, l_x<8>>& dVt, X_t& dX, mat<float, d_z<8>, l_z<8>>& dZ, attention& g, const attention::cache<l_x<8>, l_z<8>>& c, attention::scratch<l_x<8>, l_z<8>>& s) {
     nn::backward(p, X, Z, mask_bidirectional{}, dVt, dX, dZ, g, c, s);  // error here
 }
