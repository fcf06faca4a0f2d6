// Mistake: Algorithm 3's backward given a (d_in) gradient as dṽ.
// ṽ = Σ α_t v_t has d_out entries: its gradient too.
// Fix: dv (d_out).
// fixed: const vec<float, d_in<8>>& dv => const vec<float, d_out<16>>& dv
// covers: nn::backward[Attention](dv_tilde)
// expect: in::Algorithm_3_single_query_attention_backward
// first-error: typeformer::dv_tilde_rows<typeformer::d_in<8, typeformer::W_v_rows<typeformer::d_out<16
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using attention = nn::single_query_attention<float, d_in<8>, d_attn<16>, d_out<16>>;
using cache = nn::single_query_cache<float, d_attn<16>, d_out<16>, T<6>>;
using scratch = nn::single_query_scratch<float, d_attn<16>, d_out<16>, T<6>>;

 void one_query(const attention& p, const vec<float, d_in<8>>& e, const mat<float, d_in<8>, T<6>>& E, const vec<float, d_in<8>>& dv, vec<float, d_in<8>>& de, mat<float, d_in<8>, T<6>>& dE, attention& g, const cache& c, scratch& s) {
     nn::backward(p, e, E, dv, de, dE, g, c, s);  // error here
 }
