// Mistake: Algorithm 3 given a query token e of d_out entries.
// q ← W_q e + b_q takes e (d_in) with W_q (d_attn, d_in): e here has d_out = 16 entries.
// Fix: e (d_in).
// fixed: const vec<float, d_out<16>>& e => const vec<float, d_in<8>>& e
// covers: nn::forward[Attention](e)
// expect: in::Algorithm_3_single_query_attention
// first-error: typeformer::e_rows<typeformer::d_out<16, typeformer::W_q_cols<typeformer::d_in<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using attention = nn::single_query_attention<float, d_in<8>, d_attn<16>, d_out<16>>;
using cache = nn::single_query_cache<float, d_attn<16>, d_out<16>, T<6>>;
using scratch = nn::single_query_scratch<float, d_attn<16>, d_out<16>, T<6>>;

 void one_query(const attention& p, const vec<float, d_out<16>>& e, const mat<float, d_in<8>, T<6>>& E, vec<float, d_out<16>>& v, cache& c) {
     nn::forward(p, e, E, v, c);  // error here
 }
