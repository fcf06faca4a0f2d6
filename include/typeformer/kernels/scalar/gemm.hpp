// Scalar matrix products on raw column-major storage (always available; the MCU path).
//
//   gemm_nn  C (m, n) ←/+= A (m, k) · B (k, n)
//   gemm_tn  C (m, n) ←/+= Aᵀ · B     A stored (k, m), B stored (k, n)
//   gemm_nt  C (m, n) ←/+= A · Bᵀ     A stored (m, k), B stored (n, k)
//   gemv_n   y (m)    ←/+= A (m, k) · x (k)
//   gemv_t   y (m)    ←/+= Aᵀ · x (k)  A stored (k, m)
//
// X(i, j) is X[i + j·ldx]. `accumulate` false overwrites the output, true adds to it.
//
// The products take an optional gemm_band: what a causal mask (Algorithm 4's Mask[t_z, t_x] =
// t_z ≤ t_x + offset) lets them skip: these loops skip single entries and terms, the SIMD
// kernels only whole tiles and k slices, so a band is a permission, never a promise about the
// entries it excludes.
#pragma once

#include <cstddef>

namespace typeformer::kernels {

// The part of C (m, n) ←/+= X·Y a causal mask leaves worth computing; column j of C is query
// position j (+ offset in the mask's terms).
//   none        every entry, every term
//   c_upper     only C(i, j) with i ≤ j + offset is wanted (S = KᵀQ, dA = VᵀdṼ); the others
//               may hold anything after the call
//   k_to_col    Y(p, j) = 0 for p > j + offset, so the sum over p may stop there (V·A, K·dS)
//   k_from_col  Y(p, j) = 0 for p < j + offset, so the sum may start there (dṼ·Aᵀ, Q·dSᵀ)
struct gemm_band {
    enum class kind : unsigned char { none, c_upper, k_to_col, k_from_col };
    kind what = kind::none;
    std::ptrdiff_t offset = 0;

    // The same band for the columns from j0 on, numbered from 0 (one chunk of a column split).
    constexpr gemm_band shifted(std::size_t j0) const noexcept {
        return {what, offset + static_cast<std::ptrdiff_t>(j0)};
    }
    // Rows of C wanted by columns [0, j_end): [0, rows_upto(m, j_end)).
    constexpr std::size_t rows_upto(std::size_t m, std::size_t j_end) const noexcept {
        return what == kind::c_upper ? clamp(static_cast<std::ptrdiff_t>(j_end) + offset, m) : m;
    }
    // Terms p in [k_first(k, j0), k_last(k, j_end)) of the sum reach some column of [j0, j_end).
    constexpr std::size_t k_first(std::size_t k, std::size_t j0) const noexcept {
        return what == kind::k_from_col ? clamp(static_cast<std::ptrdiff_t>(j0) + offset, k) : 0;
    }
    constexpr std::size_t k_last(std::size_t k, std::size_t j_end) const noexcept {
        return what == kind::k_to_col ? clamp(static_cast<std::ptrdiff_t>(j_end) + offset, k) : k;
    }

private:
    static constexpr std::size_t clamp(std::ptrdiff_t v, std::size_t hi) noexcept {
        return v <= 0 ? 0 : static_cast<std::size_t>(v) < hi ? static_cast<std::size_t>(v) : hi;
    }
};

}  // namespace typeformer::kernels

namespace typeformer::kernels::scalar {

template <class T>
constexpr void gemm_nn(std::size_t m, std::size_t n, std::size_t k, const T* A, std::size_t lda,
                       const T* B, std::size_t ldb, T* C, std::size_t ldc, bool accumulate,
                       gemm_band band = {}) noexcept {
    for (std::size_t j = 0; j < n; ++j) {
        T* c = C + j * ldc;
        const std::size_t rows = band.rows_upto(m, j + 1);
        if (!accumulate)
            for (std::size_t i = 0; i < rows; ++i)
                c[i] = T(0);
        // C[:, j] += A[:, p]·B(p, j): contiguous runs of A and C.
        for (std::size_t p = band.k_first(k, j); p < band.k_last(k, j + 1); ++p) {
            const T b = B[p + j * ldb];
            const T* a = A + p * lda;
            for (std::size_t i = 0; i < rows; ++i)
                c[i] += a[i] * b;
        }
    }
}

template <class T>
constexpr void gemm_tn(std::size_t m, std::size_t n, std::size_t k, const T* A, std::size_t lda,
                       const T* B, std::size_t ldb, T* C, std::size_t ldc, bool accumulate,
                       gemm_band band = {}) noexcept {
    for (std::size_t j = 0; j < n; ++j) {
        const T* b = B + j * ldb;
        for (std::size_t i = 0; i < band.rows_upto(m, j + 1); ++i) {
            // C(i, j) = A[:, i] · B[:, j]: two contiguous columns.
            const T* a = A + i * lda;
            T s = T(0);
            for (std::size_t p = band.k_first(k, j); p < band.k_last(k, j + 1); ++p)
                s += a[p] * b[p];
            T& c = C[i + j * ldc];
            c = accumulate ? c + s : s;
        }
    }
}

template <class T>
constexpr void gemm_nt(std::size_t m, std::size_t n, std::size_t k, const T* A, std::size_t lda,
                       const T* B, std::size_t ldb, T* C, std::size_t ldc, bool accumulate,
                       gemm_band band = {}) noexcept {
    for (std::size_t j = 0; j < n; ++j) {
        T* c = C + j * ldc;
        const std::size_t rows = band.rows_upto(m, j + 1);
        if (!accumulate)
            for (std::size_t i = 0; i < rows; ++i)
                c[i] = T(0);
        for (std::size_t p = band.k_first(k, j); p < band.k_last(k, j + 1); ++p) {
            const T b = B[j + p * ldb];  // Bᵀ(p, j) = B(j, p)
            const T* a = A + p * lda;
            for (std::size_t i = 0; i < rows; ++i)
                c[i] += a[i] * b;
        }
    }
}

template <class T>
constexpr void gemv_n(std::size_t m, std::size_t k, const T* A, std::size_t lda, const T* x, T* y,
                      bool accumulate) noexcept {
    gemm_nn(m, 1, k, A, lda, x, k, y, m, accumulate);
}

template <class T>
constexpr void gemv_t(std::size_t m, std::size_t k, const T* A, std::size_t lda, const T* x, T* y,
                      bool accumulate) noexcept {
    gemm_tn(m, 1, k, A, lda, x, k, y, m, accumulate);
}

}  // namespace typeformer::kernels::scalar
