// Mistake: S ← Kᵀ·Q computed with the values V in place of the keys K. d_attn = d_mid = 64,
// so every size agrees (Eigen, mdspan or a raw GEMM would run it), but V's rows are d_mid, the
// per-head value dim, and Q's rows are d_attn: Algorithm 4, line 4 needs Kᵀ (l_z, d_attn).
// expect: d_mid<64>, d_attn<64>, inner_dims_match
// first-error: matmul, d_mid<64>, d_attn<64>
// max-lines: 20
#include <typeformer/kernels.hpp>

using namespace typeformer;

void scores(const mat<float, d_attn<64>, l_x<4>>& Q,  // (d_attn, l_x)
            const mat<float, d_mid<64>, l_z<8>>& V,   // (d_mid, l_z)
            mat<float, l_z<8>, l_x<4>>& S) {          // (l_z, l_x)
    matmul(transpose(V), Q, S);  // error here
}
