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
//
// They also take an optional gemm_epilogue: a bias per row and a residual to add to C's entries
// once their sums are complete, which the SIMD kernels do in the register tile before it is
// stored instead of in passes over C afterwards. Each entry gets the same operations in the same
// order as those passes (C + bias, then + R), so the fused result has the same bits.
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

// After C ←/+= X·Y is complete, in this order:
//   C(i, j) += bias[i]                 with_bias(bias)                bias (m)
//   C(i, j) += residual[i + j·ldr]     with_residual(residual, ldr)   residual (m, n)
// Built by chaining: gemm_epilogue<float>{}.with_bias(b).with_residual(R, ldr). Which parts are
// present is kept in flags, not read off null pointers: in a constant expression GCC 12 cannot
// compare a pointer into a constexpr model with null. Not combined with a band (whose unwanted
// entries hold anything). An activation is not part of it: run in the SIMD register tile, GELU's
// erf measured slower than its own pass over C (docs/performance.md).
template <class T>
class gemm_epilogue {
public:
    constexpr gemm_epilogue with_bias(const T* b) const noexcept {
        gemm_epilogue e = *this;
        e.bias_ = b;
        e.has_bias_ = true;
        return e;
    }
    constexpr gemm_epilogue with_residual(const T* r, std::size_t ldr) const noexcept {
        gemm_epilogue e = *this;
        e.residual_ = r;
        e.ldr_ = ldr;
        e.has_residual_ = true;
        return e;
    }

    constexpr bool empty() const noexcept { return !has_bias_ && !has_residual_; }
    constexpr bool has_bias() const noexcept { return has_bias_; }
    constexpr bool has_residual() const noexcept { return has_residual_; }
    // The parts' entries for C(i, j).
    constexpr const T* bias_at(std::size_t i) const noexcept { return bias_ + i; }
    constexpr const T* residual_at(std::size_t i, std::size_t j) const noexcept {
        return residual_ + i + j * ldr_;
    }

    // The same epilogue for the block of C from row i0 and column j0 on.
    constexpr gemm_epilogue at(std::size_t i0, std::size_t j0) const noexcept {
        gemm_epilogue e = *this;
        if (has_bias_)
            e.bias_ += i0;
        if (has_residual_)
            e.residual_ += i0 + j0 * ldr_;
        return e;
    }

private:
    const T* bias_ = nullptr;
    const T* residual_ = nullptr;
    std::size_t ldr_ = 0;
    bool has_bias_ = false, has_residual_ = false;
};

}  // namespace typeformer::kernels

namespace typeformer::kernels::scalar {

// The epilogue as passes over the finished C (m, n): the reference the fused SIMD one matches.
template <class T>
constexpr void apply_epilogue(std::size_t m, std::size_t n, T* C, std::size_t ldc,
                              const gemm_epilogue<T>& ep) noexcept {
    for (std::size_t j = 0; j < n; ++j)
        for (std::size_t i = 0; i < m; ++i) {
            T c = C[i + j * ldc];
            if (ep.has_bias())
                c += *ep.bias_at(i);
            if (ep.has_residual())
                c += *ep.residual_at(i, j);
            C[i + j * ldc] = c;
        }
}

template <class T>
constexpr void gemm_nn(std::size_t m, std::size_t n, std::size_t k, const T* A, std::size_t lda,
                       const T* B, std::size_t ldb, T* C, std::size_t ldc, bool accumulate,
                       gemm_band band = {}, const gemm_epilogue<T>& ep = {}) noexcept {
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
    if (!ep.empty())
        apply_epilogue(m, n, C, ldc, ep);
}

template <class T>
constexpr void gemm_tn(std::size_t m, std::size_t n, std::size_t k, const T* A, std::size_t lda,
                       const T* B, std::size_t ldb, T* C, std::size_t ldc, bool accumulate,
                       gemm_band band = {}, const gemm_epilogue<T>& ep = {}) noexcept {
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
    if (!ep.empty())
        apply_epilogue(m, n, C, ldc, ep);
}

template <class T>
constexpr void gemm_nt(std::size_t m, std::size_t n, std::size_t k, const T* A, std::size_t lda,
                       const T* B, std::size_t ldb, T* C, std::size_t ldc, bool accumulate,
                       gemm_band band = {}, const gemm_epilogue<T>& ep = {}) noexcept {
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
    if (!ep.empty())
        apply_epilogue(m, n, C, ldc, ep);
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
