// Scalar Adam(W) update of one parameter tensor (n contiguous scalars), the reference of
// kernels/simd/adam.hpp. The per-step scalars come in adam_coefficients, rounded once to T by
// train/adam.hpp; the operations are torch.optim.AdamW's, in its order:
//
//   g ← grad_scale·∇                  a mean's 1/B or a clipping factor, applied as ∇ is read
//   θ ← θ·keep                        decoupled decay (keep = 1 − lr·λ), when `decoupled`
//   g ← g + λ·θ                       L2 decay, when `l2`
//   m ← β1·m + (1 − β1)·g
//   v ← β2·v + (1 − β2)·g²
//   θ ← θ + neg_step · m / (√v / bc2_sqrt + ε)
//
// Unlike the forward pass's kernels it is not constexpr: no training step runs at compile time.
#pragma once

#include <cmath>
#include <cstddef>

namespace typeformer::kernels {

template <class T>
struct adam_coefficients {
    T beta1, one_minus_beta1, beta2, one_minus_beta2;
    T bc2_sqrt;  // √(1 − β2^t)
    T eps;
    T neg_step;  // −lr / (1 − β1^t)
    T lambda;    // λ of the L2 form
    T keep;      // 1 − lr·λ of the decoupled form
    T grad_scale = T(1);
    bool decoupled = false, l2 = false;
};

namespace scalar {

template <class T>
void adam(std::size_t n, const adam_coefficients<T>& c, T* __restrict theta,
          const T* __restrict grad, T* __restrict m, T* __restrict v) noexcept {
    for (std::size_t i = 0; i < n; ++i) {
        if (c.decoupled)
            theta[i] *= c.keep;
        const T gs = c.grad_scale * grad[i];
        const T g = c.l2 ? gs + c.lambda * theta[i] : gs;
        m[i] = m[i] * c.beta1 + c.one_minus_beta1 * g;
        v[i] = v[i] * c.beta2 + c.one_minus_beta2 * (g * g);
        const T denom = std::sqrt(v[i]) / c.bc2_sqrt + c.eps;
        theta[i] += c.neg_step * (m[i] / denom);
    }
}

}  // namespace scalar
}  // namespace typeformer::kernels
