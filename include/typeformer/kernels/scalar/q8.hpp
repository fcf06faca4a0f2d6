// Scalar int8 kernels: symmetric per-row quantization and the product of an int8 matrix with
// float activations (always available; the reference the SIMD path is tested against).
//
//   quantize_rows_q8  W (m, k) float, W_ij at W[i·rs + j·cs] (column-major: rs 1, cs ld; a
//                     transposed read swaps them)  →  Q (m rows of k int8, row i at Q + i·ldq)
//                     and s (m):  s_i = max_j |W_ij| / 127,  Q_ij = round(W_ij / s_i)
//   gemm_q8           C (m, n) ←/+= diag(s)·Q · B,  B (k, n) float column-major
//
// Q is stored row-major (an output row's k weights are contiguous), the layout a dot product
// per output entry streams; the scale multiplies the finished sum, so the inner loop is int8 ×
// float only. Symmetric: no zero point, −128 unused, so the grid is ±127 · s_i.
#pragma once

#include <cstddef>
#include <cstdint>

namespace typeformer::kernels::scalar {

// Round half away from zero (std::round is not constexpr in C++20).
constexpr std::int8_t round_to_q8(float v) noexcept {
    const float a = v < 0 ? -v : v;
    const int r = static_cast<int>(a + 0.5f);
    const int c = r > 127 ? 127 : r;
    return static_cast<std::int8_t>(v < 0 ? -c : c);
}

constexpr void quantize_rows_q8(std::size_t m, std::size_t k, const float* W, std::size_t rs,
                                std::size_t cs, std::int8_t* Q, std::size_t ldq,
                                float* s) noexcept {
    for (std::size_t i = 0; i < m; ++i) {
        float amax = 0;
        for (std::size_t p = 0; p < k; ++p) {
            const float w = W[i * rs + p * cs];
            const float a = w < 0 ? -w : w;
            amax = a > amax ? a : amax;
        }
        // An all-zero row keeps scale 0 and codes 0: it dequantizes to exact zeros.
        s[i] = amax / 127.0f;
        const float inv = amax > 0 ? 127.0f / amax : 0.0f;
        for (std::size_t p = 0; p < k; ++p)
            Q[i * ldq + p] = round_to_q8(W[i * rs + p * cs] * inv);
    }
}

constexpr void gemm_q8(std::size_t m, std::size_t n, std::size_t k, const std::int8_t* Q,
                       std::size_t ldq, const float* s, const float* B, std::size_t ldb, float* C,
                       std::size_t ldc, bool accumulate) noexcept {
    for (std::size_t j = 0; j < n; ++j) {
        const float* b = B + j * ldb;
        float* c = C + j * ldc;
        for (std::size_t i = 0; i < m; ++i) {
            const std::int8_t* q = Q + i * ldq;
            float acc = 0;
            for (std::size_t p = 0; p < k; ++p)
                acc += static_cast<float>(q[p]) * b[p];
            c[i] = accumulate ? c[i] + s[i] * acc : s[i] * acc;
        }
    }
}

}  // namespace typeformer::kernels::scalar
