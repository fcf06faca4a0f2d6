// Mistake: the query bias b_q (d_attn = 16) relabelled as a value bias of d_mid = 32.
// relabel changes a dimension's meaning, never its size: 16 entries are not 32.
// Fix: a vector of d_mid = 32 entries, or relabel<d_mid<16>>(b_q) if d_mid is 16.
// fixed: relabel<d_mid<32>>(b_q) => relabel<d_mid<16>>(b_q)
// covers: relabel(x)
// expect: in::relabel
// first-error: typeformer::relabel_from<typeformer::d_attn<16, typeformer::relabel_to<typeformer::d_mid<32
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;

 auto as_value_bias(const vec<float, d_attn<16>>& b_q) {
     return relabel<d_mid<32>>(b_q);  // error here
 }
