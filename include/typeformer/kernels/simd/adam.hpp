// xsimd Adam(W) update; same signature and operations as kernels/scalar/adam.hpp, a batch of
// scalars at a time (the scalar loop's division and square root are what made the optimiser step
// a tenth of a tiny training step).
#pragma once

#include <cstddef>

#include "../scalar/adam.hpp"
#include "common.hpp"

namespace typeformer::kernels::simd {

template <class T>
void adam(std::size_t n, const adam_coefficients<T>& c, T* __restrict theta,
          const T* __restrict grad, T* __restrict m, T* __restrict v) noexcept {
    using namespace simd_impl;
    if constexpr (!has_batch<T>) {
        scalar::adam(n, c, theta, grad, m, v);
    } else {
        const batch<T> beta1(c.beta1), omb1(c.one_minus_beta1), beta2(c.beta2),
            omb2(c.one_minus_beta2), bc2(c.bc2_sqrt), eps(c.eps), neg_step(c.neg_step),
            lambda(c.lambda), keep(c.keep), grad_scale(c.grad_scale);
        auto update = [&](std::size_t i, std::size_t k) {
            batch<T> th = load_n(theta + i, k);
            batch<T> g = grad_scale * load_n(grad + i, k);
            if (c.decoupled)
                th = th * keep;
            if (c.l2)
                g = xsimd::fma(lambda, th, g);
            const batch<T> mi = xsimd::fma(load_n(m + i, k), beta1, omb1 * g);
            const batch<T> vi = xsimd::fma(load_n(v + i, k), beta2, omb2 * (g * g));
            const batch<T> denom = xsimd::sqrt(vi) / bc2 + eps;
            store_n(m + i, mi, k);
            store_n(v + i, vi, k);
            store_n(theta + i, xsimd::fma(neg_step, mi / denom, th), k);
        };
        for_each_run<T>(n, update);
    }
}

}  // namespace typeformer::kernels::simd
