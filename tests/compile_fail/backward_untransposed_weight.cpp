// Mistake: the backward pass of Q = W_q·X uses W_q where W_qᵀ is required.
// dX += W_qᵀ·dQ (d_x, l_x); written as W_q·dQ, the product pairs W_q's columns (d_x) with dQ's rows
// (d_attn).
// Fix: matmul_add(transpose(W_q), dQ, dX).
// gallery: 6
// fixed: matmul_add(W_q, dQ, dX); => matmul_add(transpose(W_q), dQ, dX);
// covers: matmul_add(a b)
// expect: in::matmul_add
// first-error: A_cols<typeformer::d_x<8>, B_rows<typeformer::d_attn<16>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void queries_backward(const mat<float, d_attn<16>, d_x<8>>& W_q,  // (d_attn, d_x)
                      const mat<float, d_attn<16>, l_x<4>>& dQ,   // (d_attn, l_x)
                      mat<float, d_x<8>, l_x<4>>& dX) {           // (d_x, l_x)
    matmul_add(W_q, dQ, dX);  // error here
}
