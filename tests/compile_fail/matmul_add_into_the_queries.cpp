// Mistake: the weight gradient's product accumulated into dQ's shape.
// W_qᵀ dQ (d_x, ℓ) is dX's product; accumulated into (d_attn, ℓ) it has no place.
// Fix: c (d_x, l_x): matmul_add(transpose(W_q), dQ, dX).
// fixed: mat<float, d_attn<16>, l_x<4>>& dX => mat<float, d_x<8>, l_x<4>>& dX
// covers: matmul_add(c)
// expect: in::matmul_add
// first-error: typeformer::C_rows<typeformer::d_attn<16, typeformer::A_rows<typeformer::d_x<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;

 void f(const mat<float, d_attn<16>, d_x<8>>& W_q, const mat<float, d_attn<16>, l_x<4>>& dQ, mat<float, d_attn<16>, l_x<4>>& dX) {
     matmul_add(transpose(W_q), dQ, dX);  // error here
 }
