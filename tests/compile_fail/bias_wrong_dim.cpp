// Mistake: adding the query bias b_q (d_attn) to the values V (d_mid, l_x).
// d_attn = d_mid = 16, so the sizes agree; the meanings do not: a head's values are
// V^h ← W_v^h Z + b_v^h 1ᵀ with b_v^h ∈ R^{d_mid} (Algorithms 4 and 5; Z = X in self-attention);
// b_q belongs to Q.
// expect: d_attn<16>, d_mid<16>, vector_matches_rows
// first-error: add_bias, d_mid<16>, d_attn<16>
// max-lines: 20
#include <typeformer/kernels.hpp>

using namespace typeformer;

void values_bias(mat<float, d_mid<16>, l_x<4>>& V,     // (d_mid, l_x)
                 const vec<float, d_attn<16>>& b_q) {  // (d_attn)
    add_bias(V, b_q);  // error here
}
