// Mistake: relabelling a (d_attn, l_x) matrix as (d_mid, l_x) when d_attn = 64 and d_mid = 32.
// relabel is the explicit way to change a dimension's meaning, and only between equal sizes.
// Fix: relabel only between dimensions of the same size (and heads with head<h>).
// gallery: 19
// fixed: relabel<d_mid<32>, l_x<8>>(K) => relabel<d_mid<64>, l_x<8>>(K)
// covers: relabel(m)
// expect: in::relabel
// first-error: relabel_from<typeformer::d_attn<64>, relabel_to<typeformer::d_mid<32>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void reinterpret(mat<float, d_attn<64>, l_x<8>>& K) {  // (d_attn, l_x)
    auto V = relabel<d_mid<32>, l_x<8>>(K);  // error here
    V(0, 0) = 0.0f;
}
