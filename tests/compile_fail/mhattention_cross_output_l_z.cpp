// Mistake: Algorithm 8's cross-attention (line 16) with its output over the context length.
// MHAttention(X, Z | W^{e/d}, Mask ≡ 1) returns one column per decoder position: (d_e, l_x), added
// to X. Z's length l_z and X's length l_x are both 8 here.
// Fix: the output over l_x.
// gallery: 11
// fixed: mat<float, d_e<16>, l_z<8>>& out => mat<float, d_e<16>, l_x<8>>& out
// covers: nn::forward[MHAttention](Vt X)
// expect: in::Algorithm_5_MHAttention
// first-error: V_tilde_cols<typeformer::l_z<8>, X_cols<typeformer::l_x<8>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;
using attention = nn::MHAttention<float, d_e<16>, d_e<16>, d_attn<8>, d_mid<8>, d_e<16>, H<2>>;

void cross(const attention& a, const mat<float, d_e<16>, l_x<8>>& X,
           const mat<float, d_e<16>, l_z<8>>& Z, mat<float, d_e<16>, l_z<8>>& out,
           attention::cache<l_x<8>, l_z<8>>& c) {
    nn::forward(a, X, Z, mask_bidirectional{}, out, c);  // error here: Algorithm 8, line 16
}
