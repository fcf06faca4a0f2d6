// Helium (MVE, Armv8.1-M: Cortex-M55, M85) float products on raw column-major storage; the
// signatures of kernels/scalar/gemm.hpp, which is their reference (and runs for double).
//
//   gemm_nn  C (m, n) ←/+= A (m, k) · B (k, n)     column by column: y ← A·x, 16 rows a block
//   gemm_tn  C (m, n) ←/+= Aᵀ · B                  column by column: 4 dot products at a time
//   gemm_nt  C (m, n) ←/+= A · Bᵀ                  as gemm_nn, B's row gathered on the stack
//   gemv_n, gemv_t
//
// 128-bit vectors of 4 floats: y ← A·x keeps 16 rows of y in 4 vectors while each column of A
// comes in by 4 VLDRW and is multiplied by x_p (VFMA by a scalar): 9 instructions (and the loop's
// LE) per 16 multiply-adds; the rows past a multiple of 16 run 4 a vector, the last under a tail
// predicate (VCTP), not a scalar loop. Aᵀ·x: 4 columns of A against x, 4 entries a VLDRW,
// the 4 lanes of each sum added pairwise at the end. Every entry is its sum over k (in a different order
// than the scalar chain: within float rounding of it), then + bias, then + residual.
#pragma once

// MVE intrinsics: elsewhere (a host, a core without Helium, a tool reading every header) this
// header declares nothing; kernels/backend.hpp includes it for such a core (TYPEFORMER_HELIUM).
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 2)
#include <arm_mve.h>

#include <cstddef>
#include <type_traits>

#include "../column_drivers.hpp"
#include "../scalar/gemm.hpp"

namespace typeformer::kernels::helium {

namespace detail {

// y[0:16] ←/+= A[0:16, 0:k]·x, + bias, + residual (each may be null): 4 vectors of y in
// registers, no predicate in the loop (GCC spills arrays of vectors and moves predicates through
// the VPR there, so the four are named).
inline void nn_block16(std::size_t k, const float* A, std::size_t lda, const float* x, float* y,
                       bool accumulate, const float* bias, const float* res) noexcept {
    float32x4_t a0 = vdupq_n_f32(0.0f), a1 = a0, a2 = a0, a3 = a0;
    if (accumulate)
        a0 = vld1q_f32(y), a1 = vld1q_f32(y + 4), a2 = vld1q_f32(y + 8), a3 = vld1q_f32(y + 12);
    for (std::size_t c = 0; c < k; ++c) {
        const float* a = A + c * lda;
        const float b = x[c];
        a0 = vfmaq_n_f32(a0, vld1q_f32(a), b);
        a1 = vfmaq_n_f32(a1, vld1q_f32(a + 4), b);
        a2 = vfmaq_n_f32(a2, vld1q_f32(a + 8), b);
        a3 = vfmaq_n_f32(a3, vld1q_f32(a + 12), b);
    }
    if (bias) {
        a0 = vaddq_f32(a0, vld1q_f32(bias)), a1 = vaddq_f32(a1, vld1q_f32(bias + 4));
        a2 = vaddq_f32(a2, vld1q_f32(bias + 8)), a3 = vaddq_f32(a3, vld1q_f32(bias + 12));
    }
    if (res) {
        a0 = vaddq_f32(a0, vld1q_f32(res)), a1 = vaddq_f32(a1, vld1q_f32(res + 4));
        a2 = vaddq_f32(a2, vld1q_f32(res + 8)), a3 = vaddq_f32(a3, vld1q_f32(res + 12));
    }
    vst1q_f32(y, a0), vst1q_f32(y + 4, a1), vst1q_f32(y + 8, a2), vst1q_f32(y + 12, a3);
}

// The same for 1…4 rows: one vector under a tail predicate (VCTP).
inline void nn_block4(std::size_t rows, std::size_t k, const float* A, std::size_t lda,
                      const float* x, float* y, bool accumulate, const float* bias,
                      const float* res) noexcept {
    const mve_pred16_t p = vctp32q(rows);
    float32x4_t acc = accumulate ? vldrwq_z_f32(y, p) : vdupq_n_f32(0.0f);
    for (std::size_t c = 0; c < k; ++c)
        acc = vfmaq_n_f32(acc, vldrwq_z_f32(A + c * lda, p), x[c]);
    if (bias)
        acc = vaddq_f32(acc, vldrwq_z_f32(bias, p));
    if (res)
        acc = vaddq_f32(acc, vldrwq_z_f32(res, p));
    vstrwq_p_f32(y, acc, p);
}

// The epilogue's parts for rows [i, ...) of column j, or null.
struct epilogue_at {
    const float *bias, *res;
    epilogue_at(const gemm_epilogue<float>& ep, std::size_t i, std::size_t j) noexcept
        : bias(ep.has_bias() ? ep.bias_at(i) : nullptr),
          res(ep.has_residual() ? ep.residual_at(i, j) : nullptr) {}
};

// y (rows) ←/+= A (rows, k)·x, + the epilogue of column j: 16 rows a block, then 4 (the last
// under its tail predicate).
inline void gemv_n_column(std::size_t rows, std::size_t k, const float* A, std::size_t lda,
                          const float* x, float* y, bool accumulate, const gemm_epilogue<float>& ep,
                          std::size_t j) noexcept {
    std::size_t i = 0;
    for (; i + 16 <= rows; i += 16) {
        const epilogue_at e(ep, i, j);
        nn_block16(k, A + i, lda, x, y + i, accumulate, e.bias, e.res);
    }
    for (; i < rows; i += 4) {
        const epilogue_at e(ep, i, j);
        nn_block4(rows - i, k, A + i, lda, x, y + i, accumulate, e.bias, e.res);
    }
}

// C (4 or 1) dot products: y[c] ←/+= A[:, c]·x over k entries (columns lda apart), + bias,
// + residual: whole vectors of 4, then the rest under a tail predicate.
template <int C>
[[gnu::always_inline]] inline void tn_block(std::size_t k, const float* A, std::size_t lda,
                                            const float* x, float* y, bool accumulate,
                                            const float* bias, const float* res) noexcept {
    float32x4_t a0 = vdupq_n_f32(0.0f), a1 = a0, a2 = a0, a3 = a0;
    const std::size_t k4 = k / 4 * 4;
    for (std::size_t p = 0; p < k4; p += 4) {
        const float32x4_t xv = vld1q_f32(x + p);
        a0 = vfmaq_f32(a0, vld1q_f32(A + p), xv);
        if constexpr (C == 4) {
            a1 = vfmaq_f32(a1, vld1q_f32(A + lda + p), xv);
            a2 = vfmaq_f32(a2, vld1q_f32(A + 2 * lda + p), xv);
            a3 = vfmaq_f32(a3, vld1q_f32(A + 3 * lda + p), xv);
        }
    }
    if (k4 < k) {
        const mve_pred16_t m = vctp32q(k - k4);
        const float32x4_t xv = vldrwq_z_f32(x + k4, m);
        a0 = vfmaq_m_f32(a0, vldrwq_z_f32(A + k4, m), xv, m);
        if constexpr (C == 4) {
            a1 = vfmaq_m_f32(a1, vldrwq_z_f32(A + lda + k4, m), xv, m);
            a2 = vfmaq_m_f32(a2, vldrwq_z_f32(A + 2 * lda + k4, m), xv, m);
            a3 = vfmaq_m_f32(a3, vldrwq_z_f32(A + 3 * lda + k4, m), xv, m);
        }
    }
    const float32x4_t sums[4] = {a0, a1, a2, a3};
    for (int c = 0; c < C; ++c) {
        // MVE reduces no float vector across its lanes: the four lanes, pairwise
        float v = (vgetq_lane_f32(sums[c], 0) + vgetq_lane_f32(sums[c], 1)) +
                  (vgetq_lane_f32(sums[c], 2) + vgetq_lane_f32(sums[c], 3));
        if (accumulate)
            v = y[c] + v;
        if (bias)
            v += bias[c];
        if (res)
            v += res[c];
        y[c] = v;
    }
}

inline void gemv_t_column(std::size_t rows, std::size_t k, const float* A, std::size_t lda,
                          const float* x, float* y, bool accumulate, const gemm_epilogue<float>& ep,
                          std::size_t j) noexcept {
    std::size_t i = 0;
    for (; i + 4 <= rows; i += 4) {
        const epilogue_at e(ep, i, j);
        tn_block<4>(k, A + i * lda, lda, x, y + i, accumulate, e.bias, e.res);
    }
    for (; i < rows; ++i) {
        const epilogue_at e(ep, i, j);
        tn_block<1>(k, A + i * lda, lda, x, y + i, accumulate, e.bias, e.res);
    }
}

}  // namespace detail

TYPEFORMER_COLUMN_PRODUCTS

}  // namespace typeformer::kernels::helium

#endif
