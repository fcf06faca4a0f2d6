// Mistake: a single query q ← W_q·e with e a token embedding over d_e instead of d_in.
// Algorithm 3, line 1: q ← W_q e + b_q with W_q ∈ R^{d_attn × d_in}, e ∈ R^{d_in}.
// Fix: e over d_in (or W_q built for d_e).
// fixed: const vec<float, d_e<12>>& e => const vec<float, d_in<8>>& e
// covers: matvec(a x)
// expect: in::matvec
// first-error: A_cols<typeformer::d_in<8>, x_rows<typeformer::d_e<12>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void query(const mat<float, d_attn<16>, d_in<8>>& W_q,  // (d_attn, d_in)
           const vec<float, d_e<12>>& e,                 // (d_e): should be (d_in)
           vec<float, d_attn<16>>& q) {                  // (d_attn)
    matvec(W_q, e, q);  // error here
}
