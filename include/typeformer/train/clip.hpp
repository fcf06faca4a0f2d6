// Gradient-norm clipping and the finiteness check of a training step.
//
//   grad_norm(g)             ‖∇‖₂ over every scalar of every parameter (one global norm), in double
//   clip_grad_norm(g, c)     ∇ ← ∇ · c/(‖∇‖ + 10⁻⁶) when that factor is < 1 (torch.nn.utils.
//                            clip_grad_norm_'s rule); returns the norm before clipping
//   scale_params(x, a)       x ← a·x, every scalar (the training loop does not: it passes its
//                            mean and clipping factors to the optimiser, which applies them as
//                            it reads ∇)
#pragma once

#include <cmath>
#include <cstddef>
#include <type_traits>

#include "../params.hpp"

namespace typeformer {

namespace detail {

// Σ x² in double over eight partial sums, combined in a fixed order: one chain of dependent
// double additions waits 4 cycles for each and made the norm the slowest walk of a big model's
// step. The training loop feeds it while it adds the workers' gradients (training.hpp).
struct square_sums {
    static constexpr std::size_t K = 8;
    double acc[K] = {};

    template <class T>
    void add(std::size_t j, T x) noexcept {
        const double v = static_cast<double>(x);
        acc[j] += v * v;
    }
    // x[i] for i in [first, last) of a leaf of N (first a multiple of K, so x[i] always goes to
    // acc[i % K]): the blocks of K, then the tail; before(i) runs just before x[i] is read.
    template <std::size_t N, class T, class F>
    void each(const T* x, std::size_t first, std::size_t last, F&& before) noexcept {
        last = last < N ? last : N;  // (tells GCC the loops stay inside the leaf)
        first = first < last ? first : last;
        const std::size_t body = last - (last - first) % K;
        for (std::size_t i = first; i < body; i += K)
            for (std::size_t j = 0; j < K; ++j) {
                before(i + j);
                add(j, x[i + j]);
            }
        for (std::size_t j = 0; body + j < last; ++j) {
            before(body + j);
            add(j, x[body + j]);
        }
    }
    double total() const noexcept {
        return ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
    }
};

}  // namespace detail

template <class Model>
    requires param_struct<Model>
double grad_norm(const Model& g) noexcept {
    detail::square_sums sq;
    for_each_param(g, [&](const param_name&, const auto& p) {
        sq.each<leaf_elements<decltype(p)>>(p.data(), 0, leaf_elements<decltype(p)>,
                                            [](std::size_t) {});
    });
    return std::sqrt(sq.total());  // NaN or ∞ when any entry is: the step is then refused
}

template <class Model>
    requires param_struct<Model>
void scale_params(Model& x, double a) noexcept {
    for_each_param(x, [a](const param_name&, auto& p) {
        using T = typename std::remove_cvref_t<decltype(p)>::value_type;
        const T s = static_cast<T>(a);
        for (std::size_t i = 0; i < leaf_elements<decltype(p)>; ++i)
            p.data()[i] *= s;
    });
}

template <class Model>
    requires param_struct<Model>
double clip_grad_norm(Model& g, double max_norm) noexcept {
    const double norm = grad_norm(g);
    const double coef = max_norm / (norm + 1e-6);
    if (coef < 1.0)
        scale_params(g, coef);
    return norm;
}

TYPEFORMER_PARAMETERS_FALLBACK(grad_norm, in::grad_norm);
TYPEFORMER_PARAMETERS_FALLBACK(scale_params, in::scale_params);
TYPEFORMER_PARAMETERS_FALLBACK(clip_grad_norm, in::clip_grad_norm);

}  // namespace typeformer
