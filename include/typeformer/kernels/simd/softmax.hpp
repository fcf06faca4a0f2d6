// xsimd softmax over the columns of S; same signatures and masking as kernels/scalar/softmax.hpp.
//
//   softmax_columns           S[:, t] ← softmax(scale·S[:, t]) over its kept rows, 0 elsewhere
//   softmax_columns_backward  dS += scale · A ⊙ (dA − 1·Σ_i A[i, t]·dA[i, t]) over the kept rows
#pragma once

#include <cstddef>

#include "../scalar/softmax.hpp"
#include "common.hpp"

namespace typeformer::kernels::simd {

template <class T>
void softmax_columns(std::size_t rows, std::size_t cols, T scale, bool causal,
                     std::ptrdiff_t offset, T* S, std::size_t lds) noexcept {
    using namespace simd_impl;
    if constexpr (!has_batch<T>) {
        scalar::softmax_columns(rows, cols, scale, causal, offset, S, lds);
    } else {
        const batch<T> sc(scale);
        for (std::size_t t = 0; t < cols; ++t) {
            T* s = S + t * lds;
            const std::size_t kept = kernels::detail::kept_rows(rows, t, causal, offset);
            if (kept > 0) {
                // Pad a short run with s[0], a real entry, so the padding never wins the max.
                batch<T> mxb(scale * s[0]);
                for_each_run<T>(kept, [&](std::size_t i, std::size_t n) {
                    mxb = xsimd::max(mxb, sc * load_n(s + i, n, s[0]));
                });
                const batch<T> mx(hmax(mxb));
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
                const batch<T> inv(T(1) / (xsimd::hadd(sumb) + sum_tail));
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

}  // namespace typeformer::kernels::simd
