// Algorithm 11: θ̂ ← EDTraining(z_{1:N_data}, x_{1:N_data}, θ), training a seq2seq
// EDTransformer, with the minibatches, AdamW, clipping and schedule of train/training.hpp.
//
//   data          N_data pairs (z_n, x_n): data[n].first / .second (std::pair) or .z / .x,
//                 each converting to std::span<const token>, 1 ≤ length ≤ l_max
#pragma once

#include <cstddef>
#include <span>

#include "../models/edtransformer.hpp"
#include "loss.hpp"
#include "training.hpp"

namespace typeformer {

namespace detail {
// A pair's context z and primary x, as the dataset holds them (typed tokens keep their type).
template <class Pair>
constexpr const auto& context_of(const Pair& p) noexcept {
    if constexpr (requires { p.z; })
        return p.z;
    else
        return p.first;
}
template <class Pair>
constexpr const auto& primary_of(const Pair& p) noexcept {
    if constexpr (requires { p.x; })
        return p.x;
    else
        return p.second;
}
}  // namespace detail

// A dataset of Algorithm 11: pairs whose z and x convert to the model's input (untyped ids, or
// ids typed with the model's N_V), as sequence_dataset asks of Algorithms 12 and 13.
template <class Dataset, class Model>
concept pair_dataset = requires(const Dataset& data, std::size_t n) {
    { detail::context_of(data[n]) } -> std::convertible_to<tokens_for<Model>>;
    { detail::primary_of(data[n]) } -> std::convertible_to<tokens_for<Model>>;
    std::size(data);
};

inline namespace typed {

template <class T, class cfg, std::size_t Threads, class Dataset,
          class Observer = detail::no_observer>
    requires pair_dataset<Dataset, EDTransformer<T, cfg>> status
    EDTraining(EDTransformer<T, cfg>& model, const Dataset& data, const training_options& opt,
               training_state<EDTransformer<T, cfg>, Threads>& st, Observer&& observer = {}) {
        using model_type = EDTransformer<T, cfg>;
        auto gradient = [&](std::size_t n, std::size_t b, const worker_buffers<model_type>& w,
                            T& loss, std::size_t& tokens) {
            (void)b;
            const tokens_for<model_type> z = detail::context_of(data[n]);
            const tokens_for<model_type> x = detail::primary_of(data[n]);  // 3: ℓ ← length(x_n)
            tokens = x.empty() ? 0 : x.size() - 1;
            // 4: P_θ ← EDTransformer(z_n, x_n | θ);  5: loss(θ) = −Σ_{t=1}^{ℓ−1} log P_θ[x_n[t+1], t]
            return try_loss_and_grad(model, z, x, w.grads, w.ws, loss);
        };
        return detail::train_loop(model, std::size(data), gradient, opt, st, observer);
    }

}  // namespace typed

// ---- a call of no form above: one error naming both models, or both vocabularies ----

namespace detail {
template <class... A>
concept EDTraining_accepts = requires(A&&... a) {
    typed::EDTraining(static_cast<A&&>(a)...);
};
}  // namespace detail
// (opt is spelled out: a braced {...} argument deduces nothing in a pack)
template <class Model, class Data, class... A>
    requires(detail::architecture<Model> &&
             !detail::EDTraining_accepts<Model&, const Data&, const training_options&, A...>)
auto EDTraining(Model& model, const Data& data, const training_options& opt, A&&... args)
    -> decltype(detail::shape_error_of<in::Algorithm_11_EDTraining>(
        detail::first_error(detail::check_architecture<EDTransformer, Model>(),
                            detail::model_call_error<Model, const Data&, A...>())));

}  // namespace typeformer
