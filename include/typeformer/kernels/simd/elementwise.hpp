// xsimd elementwise kernels; same signatures as kernels/scalar/elementwise.hpp.
//
//   axpy   Y (rows, cols) += a·X (rows, cols)
//   scale  X (rows, cols) *= a
#pragma once

#include <cstddef>

#include "../scalar/elementwise.hpp"
#include "common.hpp"

namespace typeformer::kernels::simd {

template <class T>
void axpy(std::size_t rows, std::size_t cols, T a, const T* X, std::size_t ldx, T* Y,
          std::size_t ldy) noexcept {
    using namespace simd_impl;
    if constexpr (!has_batch<T>) {
        scalar::axpy(rows, cols, a, X, ldx, Y, ldy);
    } else {
        const batch<T> av(a);
        for (std::size_t j = 0; j < cols; ++j) {
            const T* x = X + j * ldx;
            T* y = Y + j * ldy;
            for_each_run<T>(rows, [&](std::size_t i, std::size_t n) {
                store_n(y + i, xsimd::fma(av, load_n(x + i, n), load_n(y + i, n)), n);
            });
        }
    }
}

template <class T>
void scale(std::size_t rows, std::size_t cols, T a, T* X, std::size_t ldx) noexcept {
    using namespace simd_impl;
    if constexpr (!has_batch<T>) {
        scalar::scale(rows, cols, a, X, ldx);
    } else {
        const batch<T> av(a);
        for (std::size_t j = 0; j < cols; ++j) {
            T* x = X + j * ldx;
            for_each_run<T>(rows, [&](std::size_t i, std::size_t n) {
                store_n(x + i, load_n(x + i, n) * av, n);
            });
        }
    }
}

}  // namespace typeformer::kernels::simd
