// Mistake: one token's query W_q e accumulated into a vector of the values' dimension (d_mid).
// Algorithm 3, line 1: q ← W_q e + b_q has W_q's d_attn rows; the values' v has d_mid rows.
// Fix: a vec over d_attn for q.
// fixed: vec<float, d_mid<16>>& q => vec<float, d_attn<16>>& q
// covers: matvec_add(y a)
// expect: in::matvec_add
// first-error: y_rows<typeformer::d_mid<16>, A_rows<typeformer::d_attn<16>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void query(const mat<float, d_attn<16>, d_e<32>>& W_q, const vec<float, d_e<32>>& e,
           vec<float, d_mid<16>>& q) {
    matvec_add(W_q, e, q);  // error here
}
