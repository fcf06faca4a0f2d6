// Mistake: the value bias b_v (d_mid) assigned to the query bias b_q (d_attn), both of 16 entries.
// b_q is added to Q = W_q X (d_attn rows), b_v to V = W_v Z (d_mid rows): equal sizes, different
// dimensions.
// Fix: assign between vectors of one dimension; relabel explicitly if the identity is really
// meant.
// fixed: const vec<float, d_mid<16>>& b_v => const vec<float, d_attn<16>>& b_v
// covers: vec::operator=(y)
// expect: in::assign
// first-error: dst_rows<typeformer::d_attn<16>, src_rows<typeformer::d_mid<16>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void tie_biases(vec<float, d_attn<16>>& b_q, const vec<float, d_mid<16>>& b_v) {
    b_q = b_v;  // error here
}
