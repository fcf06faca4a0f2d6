// Mistake: Algorithm 4's output Ṽ allocated over the context length l_z.
// Ṽ ← V·softmax(S): one column per query position t_x, so Ṽ is (d_out, l_x); l_x and l_z both hold
// 8 tokens here.
// Fix: Ṽ over l_x.
// gallery: 10
// fixed: mat<float, d_out<8>, l_z<8>>& V_tilde => mat<float, d_out<8>, l_x<8>>& V_tilde
// covers: nn::forward[Attention](Vt X)
// expect: in::Algorithm_4_attention
// first-error: V_tilde_cols<typeformer::l_z<8>, X_cols<typeformer::l_x<8>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;
using attention = nn::Attention<float, d_x<8>, d_z<8>, d_attn<4>, d_out<8>>;

void cross(const attention& a, const mat<float, d_x<8>, l_x<8>>& X,
           const mat<float, d_z<8>, l_z<8>>& Z, mat<float, d_out<8>, l_z<8>>& V_tilde,
           attention::cache<l_x<8>, l_z<8>>& c) {
    nn::forward(a, X, Z, mask_bidirectional{}, V_tilde, c);  // error here
}
