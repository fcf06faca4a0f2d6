// Mistake: Algorithm 3's output ṽ stored in a vector over d_attn.
// ṽ = Σ_t α_t v_t with v_t ← W_v e_t + b_v ∈ R^{d_out}; the query and keys live in d_attn. Both are
// 16 here.
// Fix: ṽ over d_out.
// gallery: 8
// fixed: vec<float, d_attn<16>>& v_tilde => vec<float, d_out<16>>& v_tilde
// covers: nn::forward[Attention](v_tilde p)
// expect: in::Algorithm_3_single_query_attention
// first-error: v_tilde_rows<typeformer::d_attn<16>, W_v_rows<typeformer::d_out<16>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;
using attention = nn::single_query_attention<float, d_in<8>, d_attn<16>, d_out<16>>;

void one_query(const attention& p, const vec<float, d_in<8>>& e, const mat<float, d_in<8>, T<6>>& E,
               vec<float, d_attn<16>>& v_tilde,  // (d_attn): should be (d_out)
               nn::single_query_cache<float, d_attn<16>, d_out<16>, T<6>>& c) {
    nn::forward(p, e, E, v_tilde, c);  // error here
}
