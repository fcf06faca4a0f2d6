// xsimd activations, elementwise; same signatures as kernels/scalar/activation.hpp.
// Y may alias X in forward.
#pragma once

#include <cstddef>
#include <type_traits>

#include "../erf_rational.hpp"
#include "../scalar/activation.hpp"
#include "common.hpp"

namespace typeformer::kernels::simd_impl {

// Y = f(X) column by column.
template <class T, class F>
void map_columns(std::size_t rows, std::size_t cols, const T* X, std::size_t ldx, T* Y,
                 std::size_t ldy, F f) noexcept {
    for (std::size_t j = 0; j < cols; ++j) {
        const T* x = X + j * ldx;
        T* y = Y + j * ldy;
        for_each_run<T>(
            rows, [&](std::size_t i, std::size_t n) { store_n(y + i, f(load_n(x + i, n)), n); });
    }
}

// dX += dY ⊙ f′(X) column by column.
template <class T, class F>
void map_columns_backward(std::size_t rows, std::size_t cols, const T* X, std::size_t ldx,
                          const T* dY, std::size_t lddy, T* dX, std::size_t lddx, F df) noexcept {
    for (std::size_t j = 0; j < cols; ++j) {
        const T* x = X + j * ldx;
        const T* dy = dY + j * lddy;
        T* dx = dX + j * lddx;
        for_each_run<T>(rows, [&](std::size_t i, std::size_t n) {
            store_n(dx + i, xsimd::fma(load_n(dy + i, n), df(load_n(x + i, n)), load_n(dx + i, n)),
                    n);
        });
    }
}

// erf(scale·x) for GELU: xsimd::erf for double; for float the rational function of
// kernels/erf_rational.hpp (|error| ≤ 3.7e-7). xsimd's erf evaluates two polynomials and an exp
// on every lane and blends them: ~37 cycles per 8 floats on Zen 3 against ~17 here, and the GELU
// pass was a fifth of small's MLP block.
template <class T>
batch<T> erf_scaled(const batch<T>& x, T scale) noexcept {
    if constexpr (!std::is_same_v<T, float>) {
        return xsimd::erf(x * batch<T>(scale));
    } else {
        using B = batch<float>;
        return kernels::detail::erf_rational(
            x * B(scale), [](const B& a, const B& b, const B& c) { return xsimd::fma(a, b, c); },
            [](const B& v, const B& lo, const B& hi) { return xsimd::min(xsimd::max(v, lo), hi); });
    }
}

}  // namespace typeformer::kernels::simd_impl

namespace typeformer::kernels::simd {

template <class T>
void relu(std::size_t rows, std::size_t cols, const T* X, std::size_t ldx, T* Y,
          std::size_t ldy) noexcept {
    using namespace simd_impl;
    if constexpr (!has_batch<T>)
        scalar::relu(rows, cols, X, ldx, Y, ldy);
    else
        map_columns(rows, cols, X, ldx, Y, ldy,
                    [](const batch<T>& x) { return xsimd::max(x, batch<T>(T(0))); });
}

template <class T>
void relu_backward(std::size_t rows, std::size_t cols, const T* X, std::size_t ldx, const T* dY,
                   std::size_t lddy, T* dX, std::size_t lddx) noexcept {
    using namespace simd_impl;
    if constexpr (!has_batch<T>)
        scalar::relu_backward(rows, cols, X, ldx, dY, lddy, dX, lddx);
    else
        map_columns_backward(rows, cols, X, ldx, dY, lddy, dX, lddx, [](const batch<T>& x) {
            return xsimd::select(x > batch<T>(T(0)), batch<T>(T(1)), batch<T>(T(0)));
        });
}

template <class T>
void gelu(std::size_t rows, std::size_t cols, const T* X, std::size_t ldx, T* Y,
          std::size_t ldy) noexcept {
    using namespace simd_impl;
    using k = kernels::detail::gelu_constants<T>;
    if constexpr (!has_batch<T>)
        scalar::gelu(rows, cols, X, ldx, Y, ldy);
    else
        map_columns(rows, cols, X, ldx, Y, ldy, [](const batch<T>& x) {
            return batch<T>(T(0.5)) * x * (batch<T>(T(1)) + erf_scaled(x, k::inv_sqrt2));
        });
}

template <class T>
void gelu_backward(std::size_t rows, std::size_t cols, const T* X, std::size_t ldx, const T* dY,
                   std::size_t lddy, T* dX, std::size_t lddx) noexcept {
    using namespace simd_impl;
    using k = kernels::detail::gelu_constants<T>;
    if constexpr (!has_batch<T>)
        scalar::gelu_backward(rows, cols, X, ldx, dY, lddy, dX, lddx);
    else
        map_columns_backward(rows, cols, X, ldx, dY, lddy, dX, lddx, [](const batch<T>& x) {
            const batch<T> cdf = batch<T>(T(0.5)) * (batch<T>(T(1)) + erf_scaled(x, k::inv_sqrt2));
            const batch<T> pdf = batch<T>(k::inv_sqrt_2pi) * xsimd::exp(batch<T>(T(-0.5)) * x * x);
            return xsimd::fma(x, pdf, cdf);
        });
}

template <class T>
void gelu_tanh(std::size_t rows, std::size_t cols, const T* X, std::size_t ldx, T* Y,
               std::size_t ldy) noexcept {
    using namespace simd_impl;
    using k = kernels::detail::gelu_constants<T>;
    if constexpr (!has_batch<T>)
        scalar::gelu_tanh(rows, cols, X, ldx, Y, ldy);
    else
        map_columns(rows, cols, X, ldx, Y, ldy, [](const batch<T>& x) {
            const batch<T> u =
                batch<T>(k::sqrt_2_over_pi) * xsimd::fma(batch<T>(k::cubic) * x * x, x, x);
            return batch<T>(T(0.5)) * x * (batch<T>(T(1)) + xsimd::tanh(u));
        });
}

template <class T>
void gelu_tanh_backward(std::size_t rows, std::size_t cols, const T* X, std::size_t ldx,
                        const T* dY, std::size_t lddy, T* dX, std::size_t lddx) noexcept {
    using namespace simd_impl;
    using k = kernels::detail::gelu_constants<T>;
    if constexpr (!has_batch<T>)
        scalar::gelu_tanh_backward(rows, cols, X, ldx, dY, lddy, dX, lddx);
    else
        map_columns_backward(rows, cols, X, ldx, dY, lddy, dX, lddx, [](const batch<T>& x) {
            const batch<T> one(T(1)), half(T(0.5));
            const batch<T> x2 = x * x;
            const batch<T> th = xsimd::tanh(batch<T>(k::sqrt_2_over_pi) *
                                            xsimd::fma(batch<T>(k::cubic) * x2, x, x));
            const batch<T> du =
                batch<T>(k::sqrt_2_over_pi) * xsimd::fma(batch<T>(T(3) * k::cubic), x2, one);
            return xsimd::fma(half * x * (one - th * th), du, half * (one + th));
        });
}

}  // namespace typeformer::kernels::simd
