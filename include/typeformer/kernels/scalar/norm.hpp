// Scalar normalisation over each column of X (rows, cols) (Algorithm 6 and RMSnorm).
//
//   layer_norm           Y[:, t] = (X[:, t] − m_t)·rstd_t ⊙ gamma + beta   population variance
//                        mean (cols), rstd (cols) written; rstd_t = 1/sqrt(v_t + eps)
//   layer_norm_backward  dX, dgamma, dbeta +=
//   rms_norm             Y[:, t] = X[:, t]·rstd_t ⊙ gamma,  rstd_t = 1/sqrt(mean(x²) + eps)
//   rms_norm_backward    dX, dgamma +=
//
// Y may alias X (statistics are taken before the column is written).
#pragma once

#include <cmath>
#include <cstddef>

#include "cmath.hpp"

namespace typeformer::kernels::scalar {

template <class T>
constexpr void layer_norm(std::size_t rows, std::size_t cols, T eps, const T* X, std::size_t ldx,
                          const T* gamma, const T* beta, T* Y, std::size_t ldy, T* mean,
                          T* rstd) noexcept {
    const T inv_n = T(1) / static_cast<T>(rows);
    for (std::size_t t = 0; t < cols; ++t) {
        const T* x = X + t * ldx;
        T* y = Y + t * ldy;
        T m = T(0);
        for (std::size_t i = 0; i < rows; ++i)
            m += x[i];
        m *= inv_n;
        T v = T(0);  // two passes: no cancellation in E[x²] − m²
        for (std::size_t i = 0; i < rows; ++i)
            v += (x[i] - m) * (x[i] - m);
        v *= inv_n;
        const T r = T(1) / kernels::detail::cmath::sqrt(v + eps);
        mean[t] = m;
        rstd[t] = r;
        for (std::size_t i = 0; i < rows; ++i)
            y[i] = (x[i] - m) * r * gamma[i] + beta[i];
    }
}

// x̂ = (x − m)·r, g = dY ⊙ γ:  dX += r·(g − mean(g) − x̂·mean(g ⊙ x̂)).
template <class T>
constexpr void layer_norm_backward(std::size_t rows, std::size_t cols, const T* dY,
                                   std::size_t lddy, const T* X, std::size_t ldx, const T* gamma,
                                   const T* mean, const T* rstd, T* dX, std::size_t lddx, T* dgamma,
                                   T* dbeta) noexcept {
    const T inv_n = T(1) / static_cast<T>(rows);
    for (std::size_t t = 0; t < cols; ++t) {
        const T* dy = dY + t * lddy;
        const T* x = X + t * ldx;
        T* dx = dX + t * lddx;
        const T m = mean[t], r = rstd[t];
        T sum_g = T(0), sum_gx = T(0);
        for (std::size_t i = 0; i < rows; ++i) {
            const T xh = (x[i] - m) * r;
            const T g = dy[i] * gamma[i];
            sum_g += g;
            sum_gx += g * xh;
            dgamma[i] += dy[i] * xh;
            dbeta[i] += dy[i];
        }
        const T mg = sum_g * inv_n, mgx = sum_gx * inv_n;
        for (std::size_t i = 0; i < rows; ++i) {
            const T xh = (x[i] - m) * r;
            dx[i] += r * (dy[i] * gamma[i] - mg - xh * mgx);
        }
    }
}

template <class T>
constexpr void rms_norm(std::size_t rows, std::size_t cols, T eps, const T* X, std::size_t ldx,
                        const T* gamma, T* Y, std::size_t ldy, T* rstd) noexcept {
    const T inv_n = T(1) / static_cast<T>(rows);
    for (std::size_t t = 0; t < cols; ++t) {
        const T* x = X + t * ldx;
        T* y = Y + t * ldy;
        T ss = T(0);
        for (std::size_t i = 0; i < rows; ++i)
            ss += x[i] * x[i];
        const T r = T(1) / kernels::detail::cmath::sqrt(ss * inv_n + eps);
        rstd[t] = r;
        for (std::size_t i = 0; i < rows; ++i)
            y[i] = x[i] * r * gamma[i];
    }
}

// g = dY ⊙ γ:  dX += r·g − x·r³·mean(g ⊙ x).
template <class T>
constexpr void rms_norm_backward(std::size_t rows, std::size_t cols, const T* dY, std::size_t lddy,
                                 const T* X, std::size_t ldx, const T* gamma, const T* rstd, T* dX,
                                 std::size_t lddx, T* dgamma) noexcept {
    const T inv_n = T(1) / static_cast<T>(rows);
    for (std::size_t t = 0; t < cols; ++t) {
        const T* dy = dY + t * lddy;
        const T* x = X + t * ldx;
        T* dx = dX + t * lddx;
        const T r = rstd[t];
        T sum_gx = T(0);
        for (std::size_t i = 0; i < rows; ++i) {
            sum_gx += dy[i] * gamma[i] * x[i];
            dgamma[i] += dy[i] * x[i] * r;
        }
        const T c = r * r * r * sum_gx * inv_n;
        for (std::size_t i = 0; i < rows; ++i)
            dx[i] += r * dy[i] * gamma[i] - x[i] * c;
    }
}

}  // namespace typeformer::kernels::scalar
