// Mistake: the query q = W_q e written into a (d_mid) vector.
// W_q (d_attn, d_in) times e (d_in) is (d_attn).
// Fix: y (d_attn).
// fixed: vec<float, d_mid<16>>& v => vec<float, d_attn<16>>& v
// covers: matvec(y)
// expect: in::matvec
// first-error: typeformer::y_rows<typeformer::d_mid<16, typeformer::A_rows<typeformer::d_attn<16
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;

 void f(const mat<float, d_attn<16>, d_in<8>>& W_q, const vec<float, d_in<8>>& e, vec<float, d_mid<16>>& v) {
     matvec(W_q, e, v);  // error here
 }
