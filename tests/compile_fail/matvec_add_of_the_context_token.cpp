// Mistake: W_q e accumulated with e a token of the context (d_z) for W_q over d_x.
// W_q (d_attn, d_x) takes a vector of d_x entries.
// Fix: x (d_x).
// fixed: const vec<float, d_z<8>>& z => const vec<float, d_x<8>>& z
// covers: matvec_add(x)
// expect: in::matvec_add
// first-error: typeformer::A_cols<typeformer::d_x<8, typeformer::x_rows<typeformer::d_z<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;

 void f(const mat<float, d_attn<16>, d_x<8>>& W_q, const vec<float, d_z<8>>& z, vec<float, d_attn<16>>& q) {
     matvec_add(W_q, z, q);  // error here
 }
