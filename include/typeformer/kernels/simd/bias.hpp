// xsimd bias kernels; same signatures as kernels/scalar/bias.hpp.
//
//   add_bias       Y (rows, cols) : Y[:, t] += b (rows)
//   add_bias_grad  dY (rows, cols): db (rows) += Σ_t dY[:, t]
#pragma once

#include <cstddef>

#include "../scalar/bias.hpp"
#include "common.hpp"

namespace typeformer::kernels::simd {

template <class T>
void add_bias(std::size_t rows, std::size_t cols, const T* b, T* Y, std::size_t ldy) noexcept {
    using namespace simd_impl;
    if constexpr (!has_batch<T>) {
        scalar::add_bias(rows, cols, b, Y, ldy);
    } else {
        for (std::size_t t = 0; t < cols; ++t) {
            T* y = Y + t * ldy;
            for_each_run<T>(rows, [&](std::size_t i, std::size_t n) {
                store_n(y + i, load_n(y + i, n) + load_n(b + i, n), n);
            });
        }
    }
}

template <class T>
void add_bias_grad(std::size_t rows, std::size_t cols, const T* dY, std::size_t lddy,
                   T* db) noexcept {
    using namespace simd_impl;
    if constexpr (!has_batch<T>) {
        scalar::add_bias_grad(rows, cols, dY, lddy, db);
    } else {
        // One run of db stays in a register while the columns go by.
        for_each_run<T>(rows, [&](std::size_t i, std::size_t n) {
            batch<T> acc = load_n(db + i, n);
            for (std::size_t t = 0; t < cols; ++t)
                acc += load_n(dY + i + t * lddy, n);
            store_n(db + i, acc, n);
        });
    }
}

}  // namespace typeformer::kernels::simd
