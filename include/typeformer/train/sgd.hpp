// Stochastic gradient descent: θ ← θ − η∇ (Algorithms 11–13, the update line).
//
//   sgd_step(model, grads, eta)   model and grads have the same (model) type
//
// One generic walk over (θ, ∇) pairs; each leaf's update is a flat loop over its
// contiguous storage, which the compiler vectorises. No allocation. Gradients are
// read, not cleared: zero them before the next backward (backward accumulates).
#pragma once

#include <concepts>
#include <cstddef>
#include <type_traits>

#include "../shape_error.hpp"

#include "../models/diagnose.hpp"
#include "../params.hpp"

namespace typeformer {

namespace detail {

// θ ← θ − η∇ on the scalars that part `part` of `parts` takes of every leaf (detail::leaf_part):
// the training loop runs the parts on its threads. Element-wise, so any split gives the same bits.
template <class Model, class Scalar>
constexpr void sgd_update(Model& model, const Model& grads, Scalar eta, std::size_t part,
                          std::size_t parts) noexcept {
    for_each_param(model, grads, [&](const param_name&, auto& p, const auto& g) {
        using Leaf = std::remove_cvref_t<decltype(p)>;
        using T = typename Leaf::value_type;
        const T e = static_cast<T>(eta);
        T* __restrict theta = p.data();
        const T* __restrict grad = g.data();
        const auto [first, last] = leaf_part::of(leaf_elements<Leaf>, part, parts);
        for (std::size_t i = first; i < last; ++i)
            theta[i] -= e * grad[i];
    });
}

}  // namespace detail

inline namespace typed {

template <class Model, class Scalar>
    requires std::is_arithmetic_v<Scalar>
constexpr void sgd_step(Model& model, const Model& grads, Scalar eta) noexcept {
    detail::sgd_update(model, grads, eta, 0, 1);
}

}  // namespace typed

// ---- a call of no form above: grads of another model (shape_error.hpp) ----

namespace detail {
template <class... A>
concept sgd_step_accepts = requires(A&&... a) {
    typed::sgd_step(static_cast<A&&>(a)...);
};
}  // namespace detail
template <class Model, class Grads, class... A>
    requires(!detail::sgd_step_accepts<Model&, const Grads&, A...>)
auto sgd_step(Model& model, const Grads& grads, A&&... args)
    -> decltype(detail::shape_error_of<in::sgd_step>(detail::or_arguments<Model, Grads, A...>(
        detail::check_same_model<typeformer::grads, Grads, std::remove_const_t<Model>>())));

}  // namespace typeformer
