// Mistake: the value bias's gradient db_v (d_mid) accumulated from the queries' gradient dQ (d_attn).
// b_v is added to V (line 3 of Algorithm 4), so db_v = Σ_t dV[:, t] over the values' d_mid rows;
// dQ has d_attn rows (16 here, as d_mid is).
// Fix: add_bias_grad(dV, db_v), and add_bias_grad(dQ, db_q).
// fixed: vec<float, d_mid<16>>& db_v => vec<float, d_attn<16>>& db_v
// covers: add_bias_grad(db dy)
// expect: in::add_bias_grad
// first-error: db_rows<typeformer::d_mid<16>, dY_rows<typeformer::d_attn<16>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void value_bias_grad(const mat<float, d_attn<16>, l_x<8>>& dQ, vec<float, d_mid<16>>& db_v) {
    add_bias_grad(dQ, db_v);  // error here
}
