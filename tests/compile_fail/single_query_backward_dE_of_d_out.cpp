// Mistake: Algorithm 3's context gradient written into a (d_out, T) matrix.
// ∂loss/∂E has E's shape (d_in, T).
// Fix: dE (d_in, T).
// fixed: mat<float, d_out<16>, T<6>>& dE => mat<float, d_in<8>, T<6>>& dE
// covers: nn::backward[Attention](dE)
// expect: in::Algorithm_3_single_query_attention_backward
// first-error: typeformer::dE_rows<typeformer::d_out<16, typeformer::E_rows<typeformer::d_in<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using attention = nn::single_query_attention<float, d_in<8>, d_attn<16>, d_out<16>>;
using cache = nn::single_query_cache<float, d_attn<16>, d_out<16>, T<6>>;
using scratch = nn::single_query_scratch<float, d_attn<16>, d_out<16>, T<6>>;

 void one_query(const attention& p, const vec<float, d_in<8>>& e, const mat<float, d_in<8>, T<6>>& E, const vec<float, d_out<16>>& dv, vec<float, d_in<8>>& de, mat<float, d_out<16>, T<6>>& dE, attention& g, const cache& c, scratch& s) {
     nn::backward(p, e, E, dv, de, dE, g, c, s);  // error here
 }
