// GELU's backward for the Cortex-M layer (float): dX += dY ⊙ (Φ(x) + x·φ(x)) with the layer's
// rational erf and exp (math.hpp), where the scalar reference calls newlib's erff and expf (about
// 130 instructions an element on a Cortex-M4F, 16 % of tiny's SGD step). The other types are the
// scalar layer's. Portable C++ (tested on hosts: tests/kernels/elementwise_test.cpp).
//
//   Φ(x) = 0.5·(1 + erf(x/√2)): the fit only for |x/√2| < 4, where erf is not ±1 in float, and
//          kept ≥ 0 (the fit overshoots −1 by up to 2e-7), as math::gelu does
//   φ(x) = e^(−x²/2)/√(2π), always: x·φ(x) is still 2.5e-7 at |x/√2| = 4
#pragma once

#include <cstddef>
#include <type_traits>

#include "../scalar/activation.hpp"
#include "math.hpp"

namespace typeformer::kernels::cortexm {

namespace math {
inline float gelu_derivative(float x) noexcept {
    const float u = x * 0.70710678118654752440f;
    float cdf;
    if (__builtin_fabsf(u) < 4.0f) {
        const float one_plus = 1.0f + kernels::detail::erf_rational_fit(u, fma);
        cdf = 0.5f * (one_plus < 0.0f ? 0.0f : one_plus);
    } else {
        cdf = u > 0.0f ? 1.0f : 0.0f;
    }
    const float pdf = 0.39894228040143267794f * exp(-0.5f * x * x);
    return fma(x, pdf, cdf);
}
}  // namespace math

template <class T>
void gelu_backward(std::size_t rows, std::size_t cols, const T* X, std::size_t ldx, const T* dY,
                   std::size_t lddy, T* dX, std::size_t lddx) noexcept {
    if constexpr (!std::is_same_v<T, float>) {
        scalar::gelu_backward(rows, cols, X, ldx, dY, lddy, dX, lddx);
    } else {
        for (std::size_t j = 0; j < cols; ++j)
            for (std::size_t i = 0; i < rows; ++i)
                dX[i + j * lddx] = math::fma(
                    dY[i + j * lddy], math::gelu_derivative(X[i + j * ldx]), dX[i + j * lddx]);
    }
}

}  // namespace typeformer::kernels::cortexm
