// Mistake: quantizing W_e (d_e, N_V) into the int8 table of token rows with quantize, which keeps the orientation.
// An int8 model holds W_e as W_eᵀ (N_V, d_e): row v is token v's embedding, read in one gather
// (and it is the tied W_u). quantize(W, Wq) keeps W's rows as Wq's rows.
// Fix: quantize_transposed(W_e, Wq) writes Wq ← W_eᵀ.
// fourteen: 9 quantize with no declared fallback (W_e into the token-row table)
// fixed: quantize(W_e, Wq); => quantize_transposed(W_e, Wq);
// covers: quantize(W Wq)
// expect: in::quantize
// first-error: W_rows<typeformer::d_e<32>, Wq_rows<typeformer::N_V<64>
// max-lines: 9
// clang-max-lines: 7
// gallery: 24
#include <typeformer/typeformer.hpp>

#include <typeformer/models/quantized.hpp>

using namespace typeformer;

void embed_table(const mat<float, d_e<32>, N_V<64>>& W_e, q8_mat<N_V<64>, d_e<32>>& Wq) {
    quantize(W_e, Wq);  // error here
}
