// Mistake: an untied W_u (N_V, d_e) quantized with quantize_transposed, as if it were W_e.
// quantize_transposed writes Wq ← Wᵀ for W_e (d_e, N_V), whose rows become tokens; W_u is already
// (N_V, d_e), one row per token.
// Fix: quantize(W_u, Wq).
// fixed: quantize_transposed(W_u, Wq); => quantize(W_u, Wq);
// covers: quantize_transposed(W Wq)
// expect: in::quantize_transposed
// first-error: W_rows<typeformer::N_V<64>, Wq_cols<typeformer::d_e<32>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/models/quantized.hpp>

using namespace typeformer;

void unembedding_table(const mat<float, N_V<64>, d_e<32>>& W_u, q8_mat<N_V<64>, d_e<32>>& Wq) {
    quantize_transposed(W_u, Wq);  // error here
}
