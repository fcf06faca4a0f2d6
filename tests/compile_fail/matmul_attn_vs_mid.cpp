// Mistake: S ← Kᵀ·Q computed with the values V in place of the keys K.
// d_attn = d_mid = 64, so every size agrees (Eigen, mdspan or a raw GEMM would run it), but V's rows
// are d_mid, the per-head value dimension, and Q's rows are d_attn: Algorithm 4, line 4 is S ← KᵀQ
// with K (d_attn, l_z).
// Fix: matmul(transpose(K), Q, S).
// gallery: 4
// fixed: const mat<float, d_mid<64>, l_z<8>>& V => const mat<float, d_attn<64>, l_z<8>>& V
// covers: matmul(a b)
// expect: in::matmul
// first-error: A_cols<typeformer::d_mid<64>, B_rows<typeformer::d_attn<64>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void scores(const mat<float, d_attn<64>, l_x<4>>& Q,  // (d_attn, l_x)
            const mat<float, d_mid<64>, l_z<8>>& V,   // (d_mid, l_z)
            mat<float, l_z<8>, l_x<4>>& S) {          // (l_z, l_x)
    matmul(transpose(V), Q, S);  // error here
}
