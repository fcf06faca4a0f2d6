// Adam(W) for the Cortex-M layer (float): the scalar reference's arithmetic, in its order (torch's),
// with the √ as one VSQRT (newlib's sqrtf is a call through its errno wrapper on every parameter)
// and the loop specialised on the form (decoupled weight decay, L2), whose tests the scalar loop
// repeats per parameter. The other types are the scalar layer's. Portable C++ (hosts: std::sqrt;
// tests/kernels/elementwise_test.cpp).
#pragma once

#include <cmath>
#include <cstddef>
#include <type_traits>

#include "../scalar/adam.hpp"

namespace typeformer::kernels::cortexm {

namespace math {
inline float sqrt(float x) noexcept {
#if defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M' && defined(__ARM_FP) && (__ARM_FP & 4)
    float r;
    __asm__("vsqrt.f32 %0, %1" : "=t"(r) : "t"(x));  // correctly rounded, as sqrtf; NaN below 0
    return r;
#else
    return std::sqrt(x);
#endif
}
}  // namespace math

namespace detail {
template <bool Decoupled, bool L2>
void adam_form(std::size_t n, const adam_coefficients<float>& c, float* __restrict theta,
               const float* __restrict grad, float* __restrict m, float* __restrict v) noexcept {
    for (std::size_t i = 0; i < n; ++i) {
        if constexpr (Decoupled)
            theta[i] *= c.keep;
        const float gs = c.grad_scale * grad[i];
        float g = gs;
        if constexpr (L2)
            g = gs + c.lambda * theta[i];
        m[i] = m[i] * c.beta1 + c.one_minus_beta1 * g;
        v[i] = v[i] * c.beta2 + c.one_minus_beta2 * (g * g);
        const float denom = math::sqrt(v[i]) / c.bc2_sqrt + c.eps;
        theta[i] += c.neg_step * (m[i] / denom);
    }
}
}  // namespace detail

template <class T>
void adam(std::size_t n, const adam_coefficients<T>& c, T* __restrict theta,
          const T* __restrict grad, T* __restrict m, T* __restrict v) noexcept {
    if constexpr (!std::is_same_v<T, float>)
        scalar::adam(n, c, theta, grad, m, v);
    else if (c.decoupled)
        c.l2 ? detail::adam_form<true, true>(n, c, theta, grad, m, v)
             : detail::adam_form<true, false>(n, c, theta, grad, m, v);
    else
        c.l2 ? detail::adam_form<false, true>(n, c, theta, grad, m, v)
             : detail::adam_form<false, false>(n, c, theta, grad, m, v);
}

}  // namespace typeformer::kernels::cortexm
