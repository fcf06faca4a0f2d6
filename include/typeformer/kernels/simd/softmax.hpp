// xsimd softmax over the columns of S; same signatures and masking as kernels/scalar/softmax.hpp.
//
//   softmax_columns           S[:, t] ← softmax(scale·S[:, t]) over its kept rows, 0 elsewhere
//   softmax_columns_backward  dS += scale · A ⊙ (dA − 1·Σ_i A[i, t]·dA[i, t]) over the kept rows
//   softmax_columns_online    one tile of keys of the online softmax (running m, l; alpha)
#pragma once

#include <cmath>
#include <cstddef>

#include "../scalar/softmax.hpp"
#include "common.hpp"

namespace typeformer::kernels::simd_impl {

// max over i < kept (≥ 1) of scale·s[i]; a short run is padded with s[0], a real entry, so the
// padding never wins.
template <class T>
T scaled_max(const T* s, std::size_t kept, T scale) noexcept {
    const batch<T> sc(scale);
    batch<T> mxb(scale * s[0]);
    for_each_run<T>(kept, [&](std::size_t i, std::size_t n) {
        mxb = xsimd::max(mxb, sc * load_n(s + i, n, s[0]));
    });
    return hmax(mxb);
}

// s[i] ← exp(scale·s[i] − mx) for i < kept; returns their sum.
template <class T>
T exp_shifted(T* s, std::size_t kept, T scale, T mx_t) noexcept {
    const batch<T> sc(scale), mx(mx_t);
    batch<T> sumb(T(0));
    T sum_tail = T(0);
    for_each_run<T>(kept, [&](std::size_t i, std::size_t n) {
        const batch<T> e = xsimd::exp(xsimd::fms(sc, load_n(s + i, n), mx));
        store_n(s + i, e, n);
        if (n == width<T>)
            sumb += e;
        else
            sum_tail += hadd_n(e, n);
    });
    return xsimd::hadd(sumb) + sum_tail;
}

}  // namespace typeformer::kernels::simd_impl

namespace typeformer::kernels::simd {

template <class T>
void softmax_columns(std::size_t rows, std::size_t cols, T scale, bool causal,
                     std::ptrdiff_t offset, T* S, std::size_t lds) noexcept {
    using namespace simd_impl;
    if constexpr (!has_batch<T>) {
        scalar::softmax_columns(rows, cols, scale, causal, offset, S, lds);
    } else {
        for (std::size_t t = 0; t < cols; ++t) {
            T* s = S + t * lds;
            const std::size_t kept = kernels::detail::kept_rows(rows, t, causal, offset);
            if (kept > 0) {
                const T mx = scaled_max(s, kept, scale);
                const batch<T> inv(T(1) / exp_shifted(s, kept, scale, mx));
                for_each_run<T>(kept, [&](std::size_t i, std::size_t n) {
                    store_n(s + i, load_n(s + i, n) * inv, n);
                });
            }
            for (std::size_t i = kept; i < rows; ++i)
                s[i] = T(0);  // masked: exactly 0
        }
    }
}

template <class T>
void softmax_columns_backward(std::size_t rows, std::size_t cols, T scale, const T* A,
                              std::size_t lda, const T* dA, std::size_t ldda, T* dS,
                              std::size_t ldds, bool causal = false,
                              std::ptrdiff_t offset = 0) noexcept {
    using namespace simd_impl;
    if constexpr (!has_batch<T>) {
        scalar::softmax_columns_backward(rows, cols, scale, A, lda, dA, ldda, dS, ldds, causal,
                                         offset);
    } else {
        const batch<T> sc(scale);
        for (std::size_t t = 0; t < cols; ++t) {
            const T* a = A + t * lda;
            const T* da = dA + t * ldda;
            T* ds = dS + t * ldds;
            const std::size_t kept = kernels::detail::kept_rows(rows, t, causal, offset);
            batch<T> dotb(T(0));
            for_each_run<T>(kept, [&](std::size_t i, std::size_t n) {
                dotb = xsimd::fma(load_n(a + i, n), load_n(da + i, n), dotb);  // padding is 0·0
            });
            const batch<T> dot(xsimd::hadd(dotb));
            for_each_run<T>(kept, [&](std::size_t i, std::size_t n) {
                const batch<T> g = sc * load_n(a + i, n) * (load_n(da + i, n) - dot);
                store_n(ds + i, load_n(ds + i, n) + g, n);
            });
        }
    }
}

template <class T>
void softmax_columns_online(std::size_t rows, std::size_t cols, T scale, bool causal,
                            std::ptrdiff_t offset, T* S, std::size_t lds, T* m, T* l,
                            T* alpha) noexcept {
    using namespace simd_impl;
    if constexpr (!has_batch<T>) {
        scalar::softmax_columns_online(rows, cols, scale, causal, offset, S, lds, m, l, alpha);
    } else {
        for (std::size_t t = 0; t < cols; ++t) {
            T* s = S + t * lds;
            const std::size_t kept = kernels::detail::kept_rows(rows, t, causal, offset);
            if (kept == 0) {
                alpha[t] = T(1);
            } else {
                const T mx = std::fmax(m[t], scaled_max(s, kept, scale));
                const T sum = exp_shifted(s, kept, scale, mx);
                alpha[t] = std::exp(m[t] - mx);  // m[t] = −∞: 0
                l[t] = alpha[t] * l[t] + sum;
                m[t] = mx;
            }
            for (std::size_t i = kept; i < rows; ++i)
                s[i] = T(0);  // masked: exactly 0
        }
    }
}

}  // namespace typeformer::kernels::simd
