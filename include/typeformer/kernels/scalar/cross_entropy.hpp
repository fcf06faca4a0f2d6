// Scalar cross-entropy from logits (rows = N classes, cols = positions), natural log, a sum.
//
//   cross_entropy           Σ_t [targets[t] ≠ no_target] (logsumexp(logits[:, t]) − logits(target, t))
//   cross_entropy_backward  dlogits[:, t] += weight·(softmax(logits[:, t]) − onehot(target)) for
//                           targeted columns; returns the same (unweighted) loss
//
// targets has cols entries; a target ≥ rows (other than no_target) is a precondition failure.
#pragma once

#include <cmath>
#include <cstddef>

#include "../../config.hpp"
#include "../../token.hpp"

namespace typeformer::kernels::detail {
template <class T>
T column_max(const T* x, std::size_t n) noexcept {
    T mx = x[0];
    for (std::size_t i = 1; i < n; ++i)
        mx = std::fmax(mx, x[i]);
    return mx;
}
}  // namespace typeformer::kernels::detail

namespace typeformer::kernels::scalar {

template <class T>
T cross_entropy(std::size_t rows, std::size_t cols, const T* logits, std::size_t ld,
                const token* targets) noexcept {
    T loss = T(0);
    for (std::size_t t = 0; t < cols; ++t) {
        if (targets[t] == no_target)
            continue;
        TYPEFORMER_CHECK(targets[t] < rows, "cross_entropy: target outside the vocabulary");
        const T* x = logits + t * ld;
        const T mx = kernels::detail::column_max(x, rows);
        T sum = T(0);
        for (std::size_t i = 0; i < rows; ++i)
            sum += std::exp(x[i] - mx);
        // logsumexp − x_target = (mx − x_target) + log Σ exp(x − mx): no cancellation.
        loss += (mx - x[targets[t]]) + std::log(sum);
    }
    return loss;
}

template <class T>
T cross_entropy_backward(std::size_t rows, std::size_t cols, const T* logits, std::size_t ld,
                         const token* targets, T weight, T* dlogits, std::size_t lddl) noexcept {
    T loss = T(0);
    for (std::size_t t = 0; t < cols; ++t) {
        if (targets[t] == no_target)
            continue;
        TYPEFORMER_CHECK(targets[t] < rows, "cross_entropy: target outside the vocabulary");
        const T* x = logits + t * ld;
        T* dx = dlogits + t * lddl;
        const T mx = kernels::detail::column_max(x, rows);
        T sum = T(0);
        for (std::size_t i = 0; i < rows; ++i)
            sum += std::exp(x[i] - mx);
        loss += (mx - x[targets[t]]) + std::log(sum);
        const T w = weight / sum;
        for (std::size_t i = 0; i < rows; ++i)
            dx[i] += w * std::exp(x[i] - mx);
        dx[targets[t]] -= weight;
    }
    return loss;
}

}  // namespace typeformer::kernels::scalar
