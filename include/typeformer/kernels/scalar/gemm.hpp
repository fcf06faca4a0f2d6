// Scalar matrix products on raw column-major storage (always available; the MCU path).
//
//   gemm_nn  C (m, n) ←/+= A (m, k) · B (k, n)
//   gemm_tn  C (m, n) ←/+= Aᵀ · B     A stored (k, m), B stored (k, n)
//   gemm_nt  C (m, n) ←/+= A · Bᵀ     A stored (m, k), B stored (n, k)
//   gemv_n   y (m)    ←/+= A (m, k) · x (k)
//   gemv_t   y (m)    ←/+= Aᵀ · x (k)  A stored (k, m)
//
// X(i, j) is X[i + j·ldx]. `accumulate` false overwrites the output, true adds to it.
#pragma once

#include <cstddef>

namespace typeformer::kernels::scalar {

template <class T>
constexpr void gemm_nn(std::size_t m, std::size_t n, std::size_t k, const T* A, std::size_t lda,
                       const T* B, std::size_t ldb, T* C, std::size_t ldc,
                       bool accumulate) noexcept {
    for (std::size_t j = 0; j < n; ++j) {
        T* c = C + j * ldc;
        if (!accumulate)
            for (std::size_t i = 0; i < m; ++i)
                c[i] = T(0);
        // C[:, j] += A[:, p]·B(p, j): contiguous runs of A and C.
        for (std::size_t p = 0; p < k; ++p) {
            const T b = B[p + j * ldb];
            const T* a = A + p * lda;
            for (std::size_t i = 0; i < m; ++i)
                c[i] += a[i] * b;
        }
    }
}

template <class T>
constexpr void gemm_tn(std::size_t m, std::size_t n, std::size_t k, const T* A, std::size_t lda,
                       const T* B, std::size_t ldb, T* C, std::size_t ldc,
                       bool accumulate) noexcept {
    for (std::size_t j = 0; j < n; ++j) {
        const T* b = B + j * ldb;
        for (std::size_t i = 0; i < m; ++i) {
            // C(i, j) = A[:, i] · B[:, j]: two contiguous columns.
            const T* a = A + i * lda;
            T s = T(0);
            for (std::size_t p = 0; p < k; ++p)
                s += a[p] * b[p];
            T& c = C[i + j * ldc];
            c = accumulate ? c + s : s;
        }
    }
}

template <class T>
constexpr void gemm_nt(std::size_t m, std::size_t n, std::size_t k, const T* A, std::size_t lda,
                       const T* B, std::size_t ldb, T* C, std::size_t ldc,
                       bool accumulate) noexcept {
    for (std::size_t j = 0; j < n; ++j) {
        T* c = C + j * ldc;
        if (!accumulate)
            for (std::size_t i = 0; i < m; ++i)
                c[i] = T(0);
        for (std::size_t p = 0; p < k; ++p) {
            const T b = B[j + p * ldb];  // Bᵀ(p, j) = B(j, p)
            const T* a = A + p * lda;
            for (std::size_t i = 0; i < m; ++i)
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
