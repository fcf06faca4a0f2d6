// Cross-entropy from logits (natural log, summed over positions), over named dimensions.
//
//   logits, dlogits (N_V, C)    targets: C tokens, no_target to skip a position
//   T cross_entropy(logits, targets)    Σ_t [targets[t] ≠ no_target] (logsumexp(logits[:, t]) − logits[target, t])
//   T cross_entropy_backward(logits, targets, dlogits, weight = 1)
//        dlogits[:, t] += weight·(softmax(logits[:, t]) − onehot(target)) for targeted columns;
//        returns the same (unweighted) loss as cross_entropy
// targets.size() must equal the column extent; a target ≥ rows fails TYPEFORMER_CHECK. Targets
// typed with a vocabulary (tokenize::tokens<N_V<259>>) must be the logits' rows.
#pragma once

#include <span>

#include "../token.hpp"
#include "common.hpp"
#include "diagnose.hpp"

namespace typeformer {

// The targets of logits (N_V, C): untyped ids, or ids typed with the logits' vocabulary N_V.
template <class Logits, class Targets>
concept cross_entropy_operands = matrix<Logits> &&
    std::is_convertible_v<const Targets&, input_tokens<typename Logits::rows_dim>>;

template <class Logits>
    requires matrix<Logits> kernels::detail::value_of<Logits> cross_entropy(
        const Logits& logits, input_tokens<typename Logits::rows_dim> targets)
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
                const Logits& logits, input_tokens<typename Logits::rows_dim> targets,
                DLogits&& dlogits, kernels::detail::value_of<Logits> weight = 1)
noexcept {
    const auto lr = kernels::detail::raw_of(logits);
    const auto dr = kernels::detail::raw_of(dlogits);
    TYPEFORMER_CHECK(targets.size() == lr.cols, "cross_entropy_backward: one target per column");
    TYPEFORMER_CHECK(lr.rows == dr.rows && lr.cols == dr.cols,
                     "cross_entropy_backward: logits and dlogits extents differ");
    return kernels::backend::cross_entropy_backward(lr.rows, lr.cols, lr.ptr, lr.ld, targets.data(),
                                                    weight, dr.ptr, dr.ld);
}

// ---- a mis-shaped call: the logits' rows and the targets' vocabulary (shape_error.hpp) ----

namespace kernels::detail {
template <class Logits, class Targets>
constexpr auto cross_entropy_error() {
    using namespace typeformer::detail;
    auto vocabulary = [] {
        if constexpr (diagnosable_matrix<Logits> && typed_token_sequence<Targets>)
            return what<tokens_of<typename bare_t<Targets>::vocabulary>,
                        logits_rows<typename bare_t<Logits>::rows_dim>>{};
        else
            return what<>{};
    };
    return first_error(check_matrix<role::logits, Logits>(), vocabulary());
}
}  // namespace kernels::detail

template <class Logits, class Targets>
    requires(!cross_entropy_operands<Logits, Targets>)
auto cross_entropy(const Logits& logits, const Targets& targets) noexcept
    -> decltype(detail::shape_error_of<in::cross_entropy>(
        detail::or_arguments<const Logits&, const Targets&>(
            kernels::detail::cross_entropy_error<const Logits&, const Targets&>())));

template <class Logits, class Targets, class DLogits, class... W>
    requires(!requires {
        requires cross_entropy_operands<Logits, Targets> &&
            same_shape<kernels::detail::shape_of<Logits>, kernels::detail::shape_of<DLogits>> &&
            same_value_type<kernels::detail::value_of<Logits>,
                            kernels::detail::value_of<DLogits>> &&
            writable<kernels::detail::element_of<DLogits>>;
    })
auto cross_entropy_backward(const Logits& logits, const Targets& targets, DLogits&& dlogits,
                            W... weight) noexcept
    -> decltype(detail::shape_error_of<in::cross_entropy_backward>(
        detail::or_arguments<const Logits&, const Targets&, DLogits>(detail::first_error(
            kernels::detail::cross_entropy_error<const Logits&, const Targets&>(),
            detail::check_same_shape<role::dlogits, DLogits, role::logits, const Logits&>(),
            detail::check_same_scalar<role::dlogits, DLogits, role::logits, const Logits&>(),
            detail::check_writable<role::dlogits, DLogits>()))));

}  // namespace typeformer
