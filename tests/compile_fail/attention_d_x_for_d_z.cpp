// Mistake: cross-attention (Algorithm 4) with the primary sequence passed as the context.
// Line 2: K ← W_k Z + b_k 1ᵀ with W_k ∈ R^{d_attn × d_z}: the keys are computed from the context Z
// (d_z, l_z). d_x = d_z = 8 here, so a size check passes; the meaning is wrong.
// Fix: forward(attn, X, Z, mask, V_tilde, cache) with Z the context.
// gallery: 9
// fixed: const mat<float, d_x<8>, l_x<4>>& X, => const mat<float, d_x<8>, l_x<4>>& X, const mat<float, d_z<8>, l_z<4>>& Z,
// fixed: attention::cache<l_x<4>, l_x<4>>& c => attention::cache<l_x<4>, l_z<4>>& c
// fixed: nn::forward(a, X, X, => nn::forward(a, X, Z,
// covers: nn::forward[Attention](Z p)
// expect: in::Algorithm_4_attention
// first-error: Z_rows<typeformer::d_x<8>, W_k_cols<typeformer::d_z<8>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;
using attention = nn::Attention<float, d_x<8>, d_z<8>, d_attn<4>, d_out<8>>;

void cross(const attention& a, const mat<float, d_x<8>, l_x<4>>& X,
           mat<float, d_out<8>, l_x<4>>& V_tilde, attention::cache<l_x<4>, l_x<4>>& c) {
    nn::forward(a, X, X, mask_bidirectional{}, V_tilde, c);  // error here
}
