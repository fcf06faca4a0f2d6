// Scalar bias kernels.
//
//   add_bias       Y (rows, cols) : Y[:, t] += b (rows)
//   add_bias_grad  dY (rows, cols): db (rows) += Σ_t dY[:, t]
#pragma once

#include <cstddef>

namespace typeformer::kernels::scalar {

template <class T>
constexpr void add_bias(std::size_t rows, std::size_t cols, const T* b, T* Y,
                        std::size_t ldy) noexcept {
    for (std::size_t t = 0; t < cols; ++t)
        for (std::size_t i = 0; i < rows; ++i)
            Y[i + t * ldy] += b[i];
}

template <class T>
constexpr void add_bias_grad(std::size_t rows, std::size_t cols, const T* dY, std::size_t lddy,
                             T* db) noexcept {
    for (std::size_t t = 0; t < cols; ++t)
        for (std::size_t i = 0; i < rows; ++i)
            db[i] += dY[i + t * lddy];
}

}  // namespace typeformer::kernels::scalar
