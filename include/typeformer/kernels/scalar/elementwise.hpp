// Scalar elementwise kernels (a vector is one column).
//
//   axpy   Y (rows, cols) += a·X (rows, cols)
//   scale  X (rows, cols) *= a
#pragma once

#include <cstddef>

namespace typeformer::kernels::scalar {

template <class T>
constexpr void axpy(std::size_t rows, std::size_t cols, T a, const T* X, std::size_t ldx, T* Y,
                    std::size_t ldy) noexcept {
    for (std::size_t j = 0; j < cols; ++j)
        for (std::size_t i = 0; i < rows; ++i)
            Y[i + j * ldy] += a * X[i + j * ldx];
}

template <class T>
constexpr void scale(std::size_t rows, std::size_t cols, T a, T* X, std::size_t ldx) noexcept {
    for (std::size_t j = 0; j < cols; ++j)
        for (std::size_t i = 0; i < rows; ++i)
            X[i + j * ldx] *= a;
}

}  // namespace typeformer::kernels::scalar
