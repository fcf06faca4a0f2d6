// Cross-entropy from logits (natural log, summed over positions), over named dimensions.
//
//   logits, dlogits (N_V, C)    targets: C tokens, no_target to skip a position
//   T cross_entropy(logits, targets)    Σ_t [targets[t] ≠ no_target] (logsumexp(logits[:, t]) − logits[target, t])
//   T cross_entropy_backward(logits, targets, dlogits, weight = 1)
//        dlogits[:, t] += weight·(softmax(logits[:, t]) − onehot(target)) for targeted columns;
//        returns the same (unweighted) loss as cross_entropy
// targets.size() must equal the column extent; a target ≥ rows fails TYPEFORMER_CHECK.
#pragma once

#include <span>

#include "../token.hpp"
#include "common.hpp"

namespace typeformer {

template <class Logits>
    requires matrix<Logits> kernels::detail::value_of<Logits> cross_entropy(
        const Logits& logits, std::span<const token> targets)
noexcept {
    const auto lr = kernels::detail::raw_of(logits);
    TYPEFORMER_CHECK(targets.size() == lr.cols, "cross_entropy: one target per column");
    return kernels::backend::cross_entropy(lr.rows, lr.cols, lr.ptr, lr.ld, targets.data());
}

template <class Logits, class DLogits>
    requires matrix<Logits> &&
        same_shape<kernels::detail::shape_of<Logits>, kernels::detail::shape_of<DLogits>> &&
        same_value_type<kernels::detail::value_of<Logits>, kernels::detail::value_of<DLogits>> &&
        writable<kernels::detail::element_of<DLogits>>
            kernels::detail::value_of<Logits> cross_entropy_backward(
                const Logits& logits, std::span<const token> targets, DLogits&& dlogits,
                kernels::detail::value_of<Logits> weight = 1)
noexcept {
    const auto lr = kernels::detail::raw_of(logits);
    const auto dr = kernels::detail::raw_of(dlogits);
    TYPEFORMER_CHECK(targets.size() == lr.cols, "cross_entropy_backward: one target per column");
    TYPEFORMER_CHECK(lr.rows == dr.rows && lr.cols == dr.cols,
                     "cross_entropy_backward: logits and dlogits extents differ");
    return kernels::backend::cross_entropy_backward(lr.rows, lr.cols, lr.ptr, lr.ld, targets.data(),
                                                    weight, dr.ptr, dr.ld);
}

}  // namespace typeformer
