// Mistake: Algorithm 3 given a context E of (d_attn, T) instead of (d_in, T).
// k_t ← W_k e_t + b_k takes each context token (d_in) with W_k (d_attn, d_in).
// Fix: E (d_in, T).
// fixed: const mat<float, d_attn<16>, T<6>>& E => const mat<float, d_in<8>, T<6>>& E
// covers: nn::forward[Attention](E)
// expect: in::Algorithm_3_single_query_attention
// first-error: typeformer::E_rows<typeformer::d_attn<16, typeformer::W_k_cols<typeformer::d_in<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using attention = nn::single_query_attention<float, d_in<8>, d_attn<16>, d_out<16>>;
using cache = nn::single_query_cache<float, d_attn<16>, d_out<16>, T<6>>;
using scratch = nn::single_query_scratch<float, d_attn<16>, d_out<16>, T<6>>;

 void one_query(const attention& p, const vec<float, d_in<8>>& e, const mat<float, d_attn<16>, T<6>>& E, vec<float, d_out<16>>& v, cache& c) {
     nn::forward(p, e, E, v, c);  // error here
 }
