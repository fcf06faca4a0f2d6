// Mistake: the result of W_q·X (d_attn, l_x) written into a (d_e, l_x) matrix.
// The product's shape is fixed by its operands: C ← A·B needs C's rows to be A's rows.
// Fix: Q over d_attn: mat<float, d_attn<16>, l_x<4>>.
// fixed: mat<float, d_e<8>, l_x<4>>& Q => mat<float, d_attn<16>, l_x<4>>& Q
// covers: matmul(c a)
// expect: in::matmul
// first-error: C_rows<typeformer::d_e<8>, A_rows<typeformer::d_attn<16>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void queries(const mat<float, d_attn<16>, d_x<8>>& W_q,  // (d_attn, d_x)
             const mat<float, d_x<8>, l_x<4>>& X,        // (d_x, l_x)
             mat<float, d_e<8>, l_x<4>>& Q) {            // (d_e, l_x): should be (d_attn, l_x)
    matmul(W_q, X, Q);  // error here
}
