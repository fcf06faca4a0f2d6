// Scalar activations, elementwise over X (rows, cols). Y may alias X in forward.
//
//   relu       Y = max(X, 0)                           backward: dX += dY ⊙ [X > 0]
//   gelu       Y = 0.5·x·(1 + erf(x/√2))  (exact)      backward: dX += dY ⊙ (Φ(x) + x·φ(x))
//   gelu_tanh  Y = 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))
#pragma once

#include <cmath>
#include <cstddef>

#include "cmath.hpp"

namespace typeformer::kernels::detail {
template <class T>
struct gelu_constants {
    static constexpr T inv_sqrt2 = T(0.70710678118654752440L);
    static constexpr T inv_sqrt_2pi = T(0.39894228040143267794L);  // φ(0)
    static constexpr T sqrt_2_over_pi = T(0.79788456080286535588L);
    static constexpr T cubic = T(0.044715L);
};
}  // namespace typeformer::kernels::detail

namespace typeformer::kernels::scalar {

template <class T>
constexpr void relu(std::size_t rows, std::size_t cols, const T* X, std::size_t ldx, T* Y,
                    std::size_t ldy) noexcept {
    for (std::size_t j = 0; j < cols; ++j)
        for (std::size_t i = 0; i < rows; ++i) {
            const T x = X[i + j * ldx];
            Y[i + j * ldy] = x > T(0) ? x : T(0);
        }
}

template <class T>
constexpr void relu_backward(std::size_t rows, std::size_t cols, const T* X, std::size_t ldx,
                             const T* dY, std::size_t lddy, T* dX, std::size_t lddx) noexcept {
    for (std::size_t j = 0; j < cols; ++j)
        for (std::size_t i = 0; i < rows; ++i)
            if (X[i + j * ldx] > T(0))
                dX[i + j * lddx] += dY[i + j * lddy];
}

template <class T>
constexpr void gelu(std::size_t rows, std::size_t cols, const T* X, std::size_t ldx, T* Y,
                    std::size_t ldy) noexcept {
    using k = kernels::detail::gelu_constants<T>;
    for (std::size_t j = 0; j < cols; ++j)
        for (std::size_t i = 0; i < rows; ++i) {
            const T x = X[i + j * ldx];
            Y[i + j * ldy] = T(0.5) * x * (T(1) + kernels::detail::cmath::erf(x * k::inv_sqrt2));
        }
}

template <class T>
constexpr void gelu_backward(std::size_t rows, std::size_t cols, const T* X, std::size_t ldx,
                             const T* dY, std::size_t lddy, T* dX, std::size_t lddx) noexcept {
    using k = kernels::detail::gelu_constants<T>;
    for (std::size_t j = 0; j < cols; ++j)
        for (std::size_t i = 0; i < rows; ++i) {
            const T x = X[i + j * ldx];
            const T cdf = T(0.5) * (T(1) + kernels::detail::cmath::erf(x * k::inv_sqrt2));
            const T pdf = k::inv_sqrt_2pi * kernels::detail::cmath::exp(T(-0.5) * x * x);
            dX[i + j * lddx] += dY[i + j * lddy] * (cdf + x * pdf);
        }
}

template <class T>
constexpr void gelu_tanh(std::size_t rows, std::size_t cols, const T* X, std::size_t ldx, T* Y,
                         std::size_t ldy) noexcept {
    using k = kernels::detail::gelu_constants<T>;
    for (std::size_t j = 0; j < cols; ++j)
        for (std::size_t i = 0; i < rows; ++i) {
            const T x = X[i + j * ldx];
            const T u = k::sqrt_2_over_pi * (x + k::cubic * x * x * x);
            Y[i + j * ldy] = T(0.5) * x * (T(1) + kernels::detail::cmath::tanh(u));
        }
}

template <class T>
constexpr void gelu_tanh_backward(std::size_t rows, std::size_t cols, const T* X, std::size_t ldx,
                                  const T* dY, std::size_t lddy, T* dX, std::size_t lddx) noexcept {
    using k = kernels::detail::gelu_constants<T>;
    for (std::size_t j = 0; j < cols; ++j)
        for (std::size_t i = 0; i < rows; ++i) {
            const T x = X[i + j * ldx];
            const T th =
                kernels::detail::cmath::tanh(k::sqrt_2_over_pi * (x + k::cubic * x * x * x));
            const T du = k::sqrt_2_over_pi * (T(1) + T(3) * k::cubic * x * x);
            const T d = T(0.5) * (T(1) + th) + T(0.5) * x * (T(1) - th * th) * du;
            dX[i + j * lddx] += dY[i + j * lddy] * d;
        }
}

}  // namespace typeformer::kernels::scalar
