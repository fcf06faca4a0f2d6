// The device layers' products as columns (kernels/cortexm/gemm.hpp, kernels/helium/gemm.hpp): a
// decoding step's products are matrix-vector products, so C is computed column by column by the
// layer's y ← A·x and y ← Aᵀ·x, with the band of a causal mask and the epilogue as the scalar
// layer defines them (kernels/scalar/gemm.hpp). Column(j, rows, p0, len) computes column j's
// first `rows` entries from the terms [p0, p0 + len).
#pragma once

#include <cstddef>
#include <type_traits>

#include "scalar/gemm.hpp"

namespace typeformer::kernels::detail {

template <class Column>
void by_columns(std::size_t m, std::size_t n, std::size_t k, gemm_band band,
                Column column) noexcept {
    for (std::size_t j = 0; j < n; ++j) {
        const std::size_t p0 = band.k_first(k, j), p1 = band.k_last(k, j + 1);
        column(j, band.rows_upto(m, j + 1), p0, p1 > p0 ? p1 - p0 : 0);
    }
}

// C ←/+= A·Bᵀ with a layer's gemv_n_column(rows, k, A, lda, x, y, accumulate, ep, j): column j
// of C is A times row j of B, gathered 64 entries at a time on the stack; the sums go on from
// one piece to the next (the same chain per entry) and the epilogue comes with the last.
template <class GemvColumn>
void gemm_nt_by_rows(std::size_t m, std::size_t n, std::size_t k, const float* A, std::size_t lda,
                     const float* B, std::size_t ldb, float* C, std::size_t ldc, bool accumulate,
                     gemm_band band, const gemm_epilogue<float>& ep,
                     GemvColumn gemv_n_column) noexcept {
    constexpr std::size_t piece = 64;
    float row[piece];
    for (std::size_t j = 0; j < n; ++j) {
        const std::size_t rows = band.rows_upto(m, j + 1);
        const std::size_t p0 = band.k_first(k, j), p1 = band.k_last(k, j + 1);
        std::size_t p = p0;
        bool acc = accumulate;
        do {  // at least once: with no term, C's column is its start and the epilogue
            const std::size_t len = p1 > p ? (p1 - p < piece ? p1 - p : piece) : 0;
            for (std::size_t q = 0; q < len; ++q)
                row[q] = B[j + (p + q) * ldb];
            const bool last = p + len >= p1;
            gemv_n_column(rows, len, A + p * lda, lda, row, C + j * ldc, acc,
                          last ? ep : gemm_epilogue<float>{}, j);
            p += len;
            acc = true;
        } while (p < p1);
    }
}

}  // namespace typeformer::kernels::detail

// The raw products of a device layer (the namespace it is expanded in) from its column kernels
// detail::gemv_n_column and detail::gemv_t_column: gemm_nn, gemm_tn, gemm_nt, gemv_n, gemv_t
// with kernels/scalar/gemm.hpp's signatures, the scalar layer's for any T but float.
#define TYPEFORMER_COLUMN_PRODUCTS                                                               \
    template <class T>                                                                           \
    void gemm_nn(std::size_t m, std::size_t n, std::size_t k, const T* A, std::size_t lda,       \
                 const T* B, std::size_t ldb, T* C, std::size_t ldc, bool accumulate,            \
                 gemm_band band = {}, const gemm_epilogue<T>& ep = {}) noexcept {                \
        if constexpr (!std::is_same_v<T, float>)                                                 \
            scalar::gemm_nn(m, n, k, A, lda, B, ldb, C, ldc, accumulate, band, ep);              \
        else                                                                                     \
            kernels::detail::by_columns(                                                         \
                m, n, k, band,                                                                   \
                [&](std::size_t j, std::size_t rows, std::size_t p0, std::size_t len) {          \
                    detail::gemv_n_column(rows, len, A + p0 * lda, lda, B + j * ldb + p0,        \
                                          C + j * ldc, accumulate, ep, j);                       \
                });                                                                              \
    }                                                                                            \
    template <class T>                                                                           \
    void gemm_tn(std::size_t m, std::size_t n, std::size_t k, const T* A, std::size_t lda,       \
                 const T* B, std::size_t ldb, T* C, std::size_t ldc, bool accumulate,            \
                 gemm_band band = {}, const gemm_epilogue<T>& ep = {}) noexcept {                \
        if constexpr (!std::is_same_v<T, float>)                                                 \
            scalar::gemm_tn(m, n, k, A, lda, B, ldb, C, ldc, accumulate, band, ep);              \
        else                                                                                     \
            kernels::detail::by_columns(                                                         \
                m, n, k, band,                                                                   \
                [&](std::size_t j, std::size_t rows, std::size_t p0, std::size_t len) {          \
                    detail::gemv_t_column(rows, len, A + p0, lda, B + j * ldb + p0, C + j * ldc, \
                                          accumulate, ep, j);                                    \
                });                                                                              \
    }                                                                                            \
    template <class T>                                                                           \
    void gemm_nt(std::size_t m, std::size_t n, std::size_t k, const T* A, std::size_t lda,       \
                 const T* B, std::size_t ldb, T* C, std::size_t ldc, bool accumulate,            \
                 gemm_band band = {}, const gemm_epilogue<T>& ep = {}) noexcept {                \
        if constexpr (!std::is_same_v<T, float>)                                                 \
            scalar::gemm_nt(m, n, k, A, lda, B, ldb, C, ldc, accumulate, band, ep);              \
        else                                                                                     \
            kernels::detail::gemm_nt_by_rows(m, n, k, A, lda, B, ldb, C, ldc, accumulate, band,  \
                                             ep, detail::gemv_n_column);                         \
    }                                                                                            \
    template <class T>                                                                           \
    void gemv_n(std::size_t m, std::size_t k, const T* A, std::size_t lda, const T* x, T* y,     \
                bool accumulate) noexcept {                                                      \
        gemm_nn(m, 1, k, A, lda, x, k, y, m, accumulate);                                        \
    }                                                                                            \
    template <class T>                                                                           \
    void gemv_t(std::size_t m, std::size_t k, const T* A, std::size_t lda, const T* x, T* y,     \
                bool accumulate) noexcept {                                                      \
        gemm_tn(m, 1, k, A, lda, x, k, y, m, accumulate);                                        \
    }
