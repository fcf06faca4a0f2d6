// Mistake: the residual added to cross-attention's output taken from the context Z (l_z).
// X ← X + MHAttention(X | Z): the residual is the stream X (d_e, l_x), one column per output
// column; Z has l_z columns.
// Fix: R = X, the layer's own input.
// fixed: Vt, c, Z); => Vt, c, X);
// covers: nn::forward[MHAttention](R)
// expect: in::Algorithm_5_MHAttention
// first-error: typeformer::R_cols<typeformer::l_z<8, typeformer::X_cols<typeformer::l_x<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using MHA = nn::MHAttention<float, d_e<16>, d_e<16>, d_attn<8>, d_mid<8>, d_e<16>, H<2>>;
using X_t = mat<float, d_e<16>, l_x<8>>;
using Z_t = mat<float, d_e<16>, l_z<8>>;

 void attend(const MHA& p, const X_t& X, const Z_t& Z, X_t& Vt, MHA::cache<l_x<8>, l_z<8>>& c) {
     nn::forward(p, X, Z, mask_bidirectional{}, Vt, c, Z);  // error here
 }
