// Mistake: a product written into a read-only view.
// Inputs are passed as mat_view<const T, ...>; passing one as the output C of matmul is rejected at
// the call.
// Fix: a writable output (mat, or mat_view<float, ...>).
// fixed: mat_view<const float, d_attn<16>, l_x<4>> Q => mat_view<float, d_attn<16>, l_x<4>> Q
// covers: matmul(c)
// expect: in::matmul
// first-error: C_is_read_only<typeformer::mat_view<const float, typeformer::d_attn<16>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void queries(const mat<float, d_attn<16>, d_x<8>>& W_q,      // (d_attn, d_x)
             const mat<float, d_x<8>, l_x<4>>& X,            // (d_x, l_x)
             mat_view<const float, d_attn<16>, l_x<4>> Q) {  // (d_attn, l_x), read-only
    matmul(W_q, X, Q);  // error here
}
