// xsimd int8 × float product; same signature as kernels/scalar/q8.hpp's gemm_q8.
//
// Each output entry is a dot product of an int8 row of Q with a float column of B: the int8
// lanes are widened to float a batch at a time (xsimd::load_as: in xsimd 8.1 a copy through a
// small buffer, its generic conversion between lane sizes), multiplied into a float
// accumulator batch (FMA), and reduced once per entry; the row's scale multiplies the sum.
// Four columns of B share each widened batch of Q, so the conversion is paid once per four
// products when n ≥ 4 (a prefill), once per product in a decoding step (n = 1).
#pragma once

#include <cstddef>
#include <cstdint>

#include "../scalar/q8.hpp"
#include "common.hpp"

namespace typeformer::kernels::simd {

inline void gemm_q8(std::size_t m, std::size_t n, std::size_t k, const std::int8_t* Q,
                    std::size_t ldq, const float* s, const float* B, std::size_t ldb, float* C,
                    std::size_t ldc, bool accumulate) noexcept {
    using simd_impl::batch;
    constexpr std::size_t W = simd_impl::width<float>;
    constexpr std::size_t NB = 4;  // columns of B per pass over a row of Q
    const std::size_t k_main = k / W * W;
    for (std::size_t i = 0; i < m; ++i) {
        const std::int8_t* q = Q + i * ldq;
        std::size_t j = 0;
        for (; j + NB <= n; j += NB) {
            batch<float> acc[NB] = {};
            for (std::size_t p = 0; p < k_main; p += W) {
                const batch<float> w = xsimd::load_as<float>(q + p, xsimd::unaligned_mode{});
                TYPEFORMER_UNROLL
                for (std::size_t c = 0; c < NB; ++c)
                    acc[c] =
                        xsimd::fma(w, batch<float>::load_unaligned(B + (j + c) * ldb + p), acc[c]);
            }
            TYPEFORMER_UNROLL
            for (std::size_t c = 0; c < NB; ++c) {
                float sum = xsimd::hadd(acc[c]);
                for (std::size_t p = k_main; p < k; ++p)
                    sum += static_cast<float>(q[p]) * B[(j + c) * ldb + p];
                float& out = C[i + (j + c) * ldc];
                out = accumulate ? out + s[i] * sum : s[i] * sum;
            }
        }
        for (; j < n; ++j) {
            batch<float> acc(0.0f);
            for (std::size_t p = 0; p < k_main; p += W)
                acc = xsimd::fma(xsimd::load_as<float>(q + p, xsimd::unaligned_mode{}),
                                 batch<float>::load_unaligned(B + j * ldb + p), acc);
            float sum = xsimd::hadd(acc);
            for (std::size_t p = k_main; p < k; ++p)
                sum += static_cast<float>(q[p]) * B[j * ldb + p];
            float& out = C[i + j * ldc];
            out = accumulate ? out + s[i] * sum : s[i] * sum;
        }
    }
}

}  // namespace typeformer::kernels::simd
