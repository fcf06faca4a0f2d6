// Algorithm 13: θ̂ ← DTraining(x_{1:N_data}, θ), training a DTransformer (GPT) on next-token
// prediction, with the minibatches, AdamW, clipping and schedule of train/training.hpp.
//
//   data          N_data sequences; data[n] converts to std::span<const token> (a
//                 std::vector<token>, a std::span, an array), 1 ≤ length ≤ l_max, ids < N_V
//   opt           training_options: N_epochs, η, B, optimizer, … (sum loss, SGD, B = 1 and no
//                 shuffling is the paper's algorithm exactly)
//   st            training_state<DTransformer>: caller-owned, reused to continue a run
//   observer      bool(const step_report&) or void(...), after every step
//
// Returns status::ok when the epochs are done or the observer stopped the run; a bad option or
// sequence, or non_finite, with nothing of that step applied.
#pragma once

#include <cstddef>
#include <span>
#include <utility>

#include "../models/dtransformer.hpp"
#include "loss.hpp"
#include "training.hpp"

namespace typeformer {

inline namespace typed {

template <class T, class cfg, std::size_t Threads, class Dataset,
          class Observer = detail::no_observer>
    requires sequence_dataset<Dataset, DTransformer<T, cfg>> status
    DTraining(DTransformer<T, cfg>& model, const Dataset& data, const training_options& opt,
              training_state<DTransformer<T, cfg>, Threads>& st, Observer&& observer = {}) {
        using model_type = DTransformer<T, cfg>;
        auto gradient = [&](std::size_t n, std::size_t b, const worker_buffers<model_type>& w,
                            T& loss, std::size_t& tokens) {
            (void)b;
            const std::span<const token> x(data[n]);  // 3: ℓ ← length(x_n)
            tokens = x.empty() ? 0 : x.size() - 1;
            // 4: P_θ ← DTransformer(x_n | θ);  5: loss(θ) = −Σ_{t=1}^{ℓ−1} log P_θ[x_n[t+1], t]
            return try_loss_and_grad(model, x, w.grads, w.ws, loss);
        };
        return detail::train_loop(model, std::size(data), gradient, opt, st, observer);
    }

}  // namespace typed

// ---- a call of no form above: one error naming both models, or both vocabularies ----

namespace detail {
template <class... A>
concept DTraining_accepts = requires(A&&... a) {
    typed::DTraining(static_cast<A&&>(a)...);
};
}  // namespace detail
// (opt is spelled out: a braced {...} argument deduces nothing in a pack)
template <class Model, class Data, class... A>
    requires(detail::architecture<Model> &&
             !detail::DTraining_accepts<Model&, const Data&, const training_options&, A...>)
auto DTraining(Model& model, const Data& data, const training_options& opt, A&&... args)
    -> decltype(detail::shape_error_of<in::Algorithm_13_DTraining>(
        detail::first_error(detail::check_architecture<DTransformer, Model>(),
                            detail::model_call_error<Model, const Data&, A...>())));

}  // namespace typeformer
