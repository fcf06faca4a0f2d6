// Mistake: relabelling a (d_attn, l_x) matrix as (d_mid, l_x) when d_attn = 64 and d_mid = 32.
// relabel is the explicit way to change a dimension's meaning, and only between equal sizes.
// expect: d_attn<64>, d_mid<32>, relabel_compatible
// first-error: relabel, d_attn<64>, d_mid<32>
// max-lines: 30
#include <typeformer/tensor.hpp>

using namespace typeformer;

void reinterpret(mat<float, d_attn<64>, l_x<8>>& K) {  // (d_attn, l_x)
    auto V = relabel<d_mid<32>, l_x<8>>(K);  // error here
    V(0, 0) = 0.0f;
}
