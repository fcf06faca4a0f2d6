// Gradient-norm clipping and the finiteness check of a training step.
//
//   grad_norm(g)             ‖∇‖₂ over every scalar of every parameter (one global norm), in double
//   clip_grad_norm(g, c)     ∇ ← ∇ · c/(‖∇‖ + 10⁻⁶) when that factor is < 1 (torch.nn.utils.
//                            clip_grad_norm_'s rule); returns the norm before clipping
//   scale_params(x, a)       x ← a·x, every scalar (the mean-loss reductions use it)
#pragma once

#include <cmath>
#include <cstddef>
#include <type_traits>

#include "../params.hpp"

namespace typeformer {

template <class Model>
double grad_norm(const Model& g) noexcept {
    double sum = 0.0;
    for_each_param(g, [&](const param_name&, const auto& p) {
        for (std::size_t i = 0; i < leaf_elements<decltype(p)>; ++i) {
            const double v = static_cast<double>(p.data()[i]);
            sum += v * v;
        }
    });
    return std::sqrt(sum);  // NaN or ∞ when any entry is: the step is then refused
}

template <class Model>
void scale_params(Model& x, double a) noexcept {
    for_each_param(x, [a](const param_name&, auto& p) {
        using T = typename std::remove_cvref_t<decltype(p)>::value_type;
        const T s = static_cast<T>(a);
        for (std::size_t i = 0; i < leaf_elements<decltype(p)>; ++i)
            p.data()[i] *= s;
    });
}

template <class Model>
double clip_grad_norm(Model& g, double max_norm) noexcept {
    const double norm = grad_norm(g);
    const double coef = max_norm / (norm + 1e-6);
    if (coef < 1.0)
        scale_params(g, coef);
    return norm;
}

}  // namespace typeformer
