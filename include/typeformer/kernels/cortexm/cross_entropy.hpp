// Cross-entropy from logits for the Cortex-M layer (float): the scalar reference's arithmetic
// (kernels/scalar/cross_entropy.hpp) with the layer's exp (math.hpp) for newlib's expf and a
// compare for the out-of-line fmaxf, which together took about 190 instructions a logit on a
// Cortex-M4F. The other types are the scalar layer's. Portable C++ (tested on hosts:
// tests/kernels/elementwise_test.cpp).
//
//   cross_entropy           Σ_t [targets[t] ≠ no_target] (logsumexp(logits[:, t]) − logits(target, t))
//   cross_entropy_backward  dlogits[:, t] += weight·(softmax(logits[:, t]) − onehot(target)),
//                           the exponentials computed twice (dlogits accumulates: no scratch)
//
// A NaN logit makes its column's loss NaN (the sum takes its exp), as in the reference.
#pragma once

#include <cmath>
#include <cstddef>
#include <type_traits>

#include "../scalar/cross_entropy.hpp"
#include "math.hpp"

namespace typeformer::kernels::cortexm {

namespace detail {
inline float column_max(const float* x, std::size_t n) noexcept {
    float mx = x[0];
    for (std::size_t i = 1; i < n; ++i)
        mx = x[i] > mx ? x[i] : mx;  // VCMP + VSEL / IT: no call
    return mx;
}
inline float sum_exp(const float* x, std::size_t n, float mx) noexcept {
    float sum = 0.0f;
    for (std::size_t i = 0; i < n; ++i)
        sum += math::exp(x[i] - mx);
    return sum;
}
// The loss over the targeted columns, calling each(t, x, mx, Σ exp(x − mx)) for each of them.
template <class Each>
float targeted_columns(std::size_t rows, std::size_t cols, const float* logits, std::size_t ld,
                       const token* targets, Each each) noexcept {
    float loss = 0.0f;
    for (std::size_t t = 0; t < cols; ++t) {
        if (targets[t] == no_target)
            continue;
        TYPEFORMER_CHECK(targets[t] < rows, "cross_entropy: target outside the vocabulary");
        const float* x = logits + t * ld;
        const float mx = column_max(x, rows);
        const float sum = sum_exp(x, rows, mx);
        loss += (mx - x[targets[t]]) + std::log(sum);  // logsumexp − x_target, no cancellation
        each(t, x, mx, sum);
    }
    return loss;
}
}  // namespace detail

template <class T>
T cross_entropy(std::size_t rows, std::size_t cols, const T* logits, std::size_t ld,
                const token* targets) noexcept {
    if constexpr (!std::is_same_v<T, float>)
        return scalar::cross_entropy(rows, cols, logits, ld, targets);
    else
        return detail::targeted_columns(rows, cols, logits, ld, targets,
                                        [](std::size_t, const float*, float, float) {});
}

template <class T>
T cross_entropy_backward(std::size_t rows, std::size_t cols, const T* logits, std::size_t ld,
                         const token* targets, T weight, T* dlogits, std::size_t lddl) noexcept {
    if constexpr (!std::is_same_v<T, float>) {
        return scalar::cross_entropy_backward(rows, cols, logits, ld, targets, weight, dlogits,
                                              lddl);
    } else {
        return detail::targeted_columns(rows, cols, logits, ld, targets,
                                        [&](std::size_t t, const float* x, float mx, float sum) {
                                            float* dx = dlogits + t * lddl;
                                            const float w = weight / sum;
                                            for (std::size_t i = 0; i < rows; ++i)
                                                dx[i] = math::fma(w, math::exp(x[i] - mx), dx[i]);
                                            dx[targets[t]] -= weight;
                                        });
    }
}

}  // namespace typeformer::kernels::cortexm
