// xsimd cross-entropy from logits; same signatures as kernels/scalar/cross_entropy.hpp.
//
//   cross_entropy           Σ_t [targets[t] ≠ no_target] (logsumexp(logits[:, t]) − logits(target, t))
//   cross_entropy_backward  dlogits[:, t] += weight·(softmax − onehot(target)); returns the loss
#pragma once

#include <cmath>
#include <cstddef>

#include "../../config.hpp"
#include "../../token.hpp"
#include "../scalar/cross_entropy.hpp"
#include "common.hpp"

namespace typeformer::kernels::simd_impl {

// max and Σ exp(x − max) of one column of n ≥ 1 logits.
template <class T>
void column_logsumexp_parts(const T* x, std::size_t n, T& mx, T& sum) noexcept {
    batch<T> mxb(x[0]);
    for_each_run<T>(n, [&](std::size_t i, std::size_t len) {
        mxb = xsimd::max(mxb, load_n(x + i, len, x[0]));
    });
    mx = hmax(mxb);
    const batch<T> m(mx);
    batch<T> sb(T(0));
    T tail = T(0);
    for_each_run<T>(n, [&](std::size_t i, std::size_t len) {
        const batch<T> e = xsimd::exp(load_n(x + i, len) - m);
        if (len == width<T>)
            sb += e;
        else
            tail += hadd_n(e, len);
    });
    sum = xsimd::hadd(sb) + tail;
}

}  // namespace typeformer::kernels::simd_impl

namespace typeformer::kernels::simd {

template <class T>
T cross_entropy(std::size_t rows, std::size_t cols, const T* logits, std::size_t ld,
                const token* targets) noexcept {
    using namespace simd_impl;
    if constexpr (!has_batch<T>) {
        return scalar::cross_entropy(rows, cols, logits, ld, targets);
    } else {
        T loss = T(0);
        for (std::size_t t = 0; t < cols; ++t) {
            if (targets[t] == no_target)
                continue;
            TYPEFORMER_CHECK(targets[t] < rows, "cross_entropy: target outside the vocabulary");
            const T* x = logits + t * ld;
            T mx, sum;
            column_logsumexp_parts(x, rows, mx, sum);
            loss += (mx - x[targets[t]]) + std::log(sum);
        }
        return loss;
    }
}

template <class T>
T cross_entropy_backward(std::size_t rows, std::size_t cols, const T* logits, std::size_t ld,
                         const token* targets, T weight, T* dlogits, std::size_t lddl) noexcept {
    using namespace simd_impl;
    if constexpr (!has_batch<T>) {
        return scalar::cross_entropy_backward(rows, cols, logits, ld, targets, weight, dlogits,
                                              lddl);
    } else {
        T loss = T(0);
        for (std::size_t t = 0; t < cols; ++t) {
            if (targets[t] == no_target)
                continue;
            TYPEFORMER_CHECK(targets[t] < rows, "cross_entropy: target outside the vocabulary");
            const T* x = logits + t * ld;
            T* dx = dlogits + t * lddl;
            T mx, sum;
            column_logsumexp_parts(x, rows, mx, sum);
            loss += (mx - x[targets[t]]) + std::log(sum);
            const batch<T> m(mx), w(weight / sum);
            for_each_run<T>(rows, [&](std::size_t i, std::size_t n) {
                const batch<T> e = xsimd::exp(load_n(x + i, n) - m);
                store_n(dx + i, xsimd::fma(w, e, load_n(dx + i, n)), n);
            });
            dx[targets[t]] -= weight;
        }
        return loss;
    }
}

}  // namespace typeformer::kernels::simd
