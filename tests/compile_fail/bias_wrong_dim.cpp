// Mistake: adding the query bias b_q (d_attn) to the values V (d_mid, l_x).
// d_attn = d_mid = 16, so the sizes agree; the meanings do not: a head's values are
// V^h ← W_v^h Z + b_v^h 1ᵀ with b_v^h ∈ R^{d_mid} (Algorithms 4 and 5); b_q belongs to Q.
// Fix: add_bias(V, b_v).
// fixed: const vec<float, d_attn<16>>& b_q => const vec<float, d_mid<16>>& b_q
// covers: add_bias(b y)
// expect: in::add_bias
// first-error: b_rows<typeformer::d_attn<16>, Y_rows<typeformer::d_mid<16>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void values_bias(mat<float, d_mid<16>, l_x<4>>& V,     // (d_mid, l_x)
                 const vec<float, d_attn<16>>& b_q) {  // (d_attn)
    add_bias(V, b_q);  // error here
}
