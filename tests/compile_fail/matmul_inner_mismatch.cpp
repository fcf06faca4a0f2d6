// Mistake: Q ← W_q·X with X over d_e where W_q (d_attn, d_x) needs d_x rows.
// Algorithm 4, line 1: Q ← W_q X + b_q 1ᵀ, so X must be (d_x, l_x); here X is the token
// embeddings (d_e, l_x) with d_e = 12 ≠ d_x = 8: the inner dimensions of the product differ.
// Fix: project X to d_x first, or build W_q as (d_attn, d_e) if X really is the input.
// gallery: 3
// fixed: const mat<float, d_e<12>, l_x<4>>& X => const mat<float, d_x<8>, l_x<4>>& X
// covers: matmul(a b)
// expect: in::matmul
// first-error: A_cols<typeformer::d_x<8>, B_rows<typeformer::d_e<12>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void queries(const mat<float, d_attn<16>, d_x<8>>& W_q,  // (d_attn, d_x)
             const mat<float, d_e<12>, l_x<4>>& X,       // (d_e, l_x)
             mat<float, d_attn<16>, l_x<4>>& Q) {        // (d_attn, l_x)
    matmul(W_q, X, Q);  // error here
}
