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

#include "../params.hpp"

namespace typeformer {

template <class Model, class Scalar>
    requires std::is_arithmetic_v<Scalar>
constexpr void sgd_step(Model& model, const Model& grads, Scalar eta) noexcept {
    for_each_param(model, grads, [eta](const param_name&, auto& p, const auto& g) {
        using Leaf = std::remove_cvref_t<decltype(p)>;
        using T = typename Leaf::value_type;
        const T e = static_cast<T>(eta);
        T* __restrict theta = p.data();
        const T* __restrict grad = g.data();
        for (std::size_t i = 0; i < leaf_elements<Leaf>; ++i)
            theta[i] -= e * grad[i];
    });
}

}  // namespace typeformer
