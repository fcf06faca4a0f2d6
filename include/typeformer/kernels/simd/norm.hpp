// xsimd layer norm and RMSnorm over each column; same signatures as kernels/scalar/norm.hpp.
//
//   layer_norm           Y[:, t] = (X[:, t] − m_t)·rstd_t ⊙ gamma + beta, mean/rstd written
//   layer_norm_backward  dX, dgamma, dbeta +=
//   rms_norm             Y[:, t] = X[:, t]·rstd_t ⊙ gamma, rstd written
//   rms_norm_backward    dX, dgamma +=
// Y may alias X. Padding lanes of a short run are 0 and are kept out of every sum.
#pragma once

#include <cmath>
#include <cstddef>

#include "../scalar/norm.hpp"
#include "common.hpp"

namespace typeformer::kernels::simd {

template <class T>
void layer_norm(std::size_t rows, std::size_t cols, T eps, const T* X, std::size_t ldx,
                const T* gamma, const T* beta, T* Y, std::size_t ldy, T* mean, T* rstd) noexcept {
    using namespace simd_impl;
    if constexpr (!has_batch<T>) {
        scalar::layer_norm(rows, cols, eps, X, ldx, gamma, beta, Y, ldy, mean, rstd);
    } else {
        const T inv_n = T(1) / static_cast<T>(rows);
        for (std::size_t t = 0; t < cols; ++t) {
            const T* x = X + t * ldx;
            T* y = Y + t * ldy;
            batch<T> sb(T(0));
            for_each_run<T>(rows, [&](std::size_t i, std::size_t n) { sb += load_n(x + i, n); });
            const T m = xsimd::hadd(sb) * inv_n;
            const batch<T> mb(m);
            batch<T> vb(T(0));
            T v_tail = T(0);
            for_each_run<T>(rows, [&](std::size_t i, std::size_t n) {
                const batch<T> d = load_n(x + i, n) - mb;
                if (n == width<T>)
                    vb = xsimd::fma(d, d, vb);
                else
                    v_tail += hadd_n(d * d, n);
            });
            const T r = T(1) / std::sqrt((xsimd::hadd(vb) + v_tail) * inv_n + eps);
            mean[t] = m;
            rstd[t] = r;
            const batch<T> rb(r);
            for_each_run<T>(rows, [&](std::size_t i, std::size_t n) {
                const batch<T> xh = (load_n(x + i, n) - mb) * rb;
                store_n(y + i, xsimd::fma(xh, load_n(gamma + i, n), load_n(beta + i, n)), n);
            });
        }
    }
}

// x̂ = (x − m)·r, g = dY ⊙ γ:  dX += r·(g − mean(g) − x̂·mean(g ⊙ x̂)).
template <class T>
void layer_norm_backward(std::size_t rows, std::size_t cols, const T* dY, std::size_t lddy,
                         const T* X, std::size_t ldx, const T* gamma, const T* mean, const T* rstd,
                         T* dX, std::size_t lddx, T* dgamma, T* dbeta) noexcept {
    using namespace simd_impl;
    if constexpr (!has_batch<T>) {
        scalar::layer_norm_backward(rows, cols, dY, lddy, X, ldx, gamma, mean, rstd, dX, lddx,
                                    dgamma, dbeta);
    } else {
        const T inv_n = T(1) / static_cast<T>(rows);
        for (std::size_t t = 0; t < cols; ++t) {
            const T* dy = dY + t * lddy;
            const T* x = X + t * ldx;
            T* dx = dX + t * lddx;
            const batch<T> mb(mean[t]), rb(rstd[t]);
            batch<T> sgb(T(0)), sgxb(T(0));
            for_each_run<T>(rows, [&](std::size_t i, std::size_t n) {
                const batch<T> d = load_n(dy + i, n);  // padding: d = 0, so g = 0
                const batch<T> xh = (load_n(x + i, n) - mb) * rb;
                const batch<T> g = d * load_n(gamma + i, n);
                sgb += g;
                sgxb = xsimd::fma(g, xh, sgxb);
                store_n(dgamma + i, xsimd::fma(d, xh, load_n(dgamma + i, n)), n);
                store_n(dbeta + i, load_n(dbeta + i, n) + d, n);
            });
            const batch<T> mg(xsimd::hadd(sgb) * inv_n), mgx(xsimd::hadd(sgxb) * inv_n);
            for_each_run<T>(rows, [&](std::size_t i, std::size_t n) {
                const batch<T> xh = (load_n(x + i, n) - mb) * rb;
                const batch<T> g = load_n(dy + i, n) * load_n(gamma + i, n);
                const batch<T> upd = rb * (g - mg - xh * mgx);
                store_n(dx + i, load_n(dx + i, n) + upd, n);
            });
        }
    }
}

template <class T>
void rms_norm(std::size_t rows, std::size_t cols, T eps, const T* X, std::size_t ldx,
              const T* gamma, T* Y, std::size_t ldy, T* rstd) noexcept {
    using namespace simd_impl;
    if constexpr (!has_batch<T>) {
        scalar::rms_norm(rows, cols, eps, X, ldx, gamma, Y, ldy, rstd);
    } else {
        const T inv_n = T(1) / static_cast<T>(rows);
        for (std::size_t t = 0; t < cols; ++t) {
            const T* x = X + t * ldx;
            T* y = Y + t * ldy;
            batch<T> ssb(T(0));
            for_each_run<T>(rows, [&](std::size_t i, std::size_t n) {
                const batch<T> v = load_n(x + i, n);
                ssb = xsimd::fma(v, v, ssb);
            });
            const T r = T(1) / std::sqrt(xsimd::hadd(ssb) * inv_n + eps);
            rstd[t] = r;
            const batch<T> rb(r);
            for_each_run<T>(rows, [&](std::size_t i, std::size_t n) {
                store_n(y + i, load_n(x + i, n) * rb * load_n(gamma + i, n), n);
            });
        }
    }
}

// g = dY ⊙ γ:  dX += r·g − x·r³·mean(g ⊙ x).
template <class T>
void rms_norm_backward(std::size_t rows, std::size_t cols, const T* dY, std::size_t lddy,
                       const T* X, std::size_t ldx, const T* gamma, const T* rstd, T* dX,
                       std::size_t lddx, T* dgamma) noexcept {
    using namespace simd_impl;
    if constexpr (!has_batch<T>) {
        scalar::rms_norm_backward(rows, cols, dY, lddy, X, ldx, gamma, rstd, dX, lddx, dgamma);
    } else {
        const T inv_n = T(1) / static_cast<T>(rows);
        for (std::size_t t = 0; t < cols; ++t) {
            const T* dy = dY + t * lddy;
            const T* x = X + t * ldx;
            T* dx = dX + t * lddx;
            const T r = rstd[t];
            const batch<T> rb(r);
            batch<T> sgxb(T(0));
            for_each_run<T>(rows, [&](std::size_t i, std::size_t n) {
                const batch<T> d = load_n(dy + i, n);
                const batch<T> xv = load_n(x + i, n);
                sgxb = xsimd::fma(d * load_n(gamma + i, n), xv, sgxb);
                store_n(dgamma + i, xsimd::fma(d, xv * rb, load_n(dgamma + i, n)), n);
            });
            const batch<T> c(r * r * r * xsimd::hadd(sgxb) * inv_n);
            for_each_run<T>(rows, [&](std::size_t i, std::size_t n) {
                const batch<T> g = load_n(dy + i, n) * load_n(gamma + i, n);
                const batch<T> upd = xsimd::fms(rb, g, load_n(x + i, n) * c);
                store_n(dx + i, load_n(dx + i, n) + upd, n);
            });
        }
    }
}

}  // namespace typeformer::kernels::simd
