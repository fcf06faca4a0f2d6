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
//   DTraining(model, data, opt, step_training_state<Model, train_all, Memory>)   the same over a
//                 step workspace (train/step.hpp: heads and MLP tiles, recomputed activations)
//   DTraining(base, tr, data, opt, step_training_state<Model, S, Memory>)        fine-tuning: the
//                 part tr (trainable<Model, S>) trains over the frozen base, with SGD or AdamW
//                 on tr alone; checkpoints (io/checkpoint.hpp) save tr and its optimiser state
//
// Returns status::ok when the epochs are done or the observer stopped the run; a bad option or
// sequence, or non_finite, with nothing of that step applied.
#pragma once

#include <cstddef>
#include <span>
#include <utility>

#include "../models/dtransformer.hpp"
#include "loss.hpp"
#include "step.hpp"
#include "trainable.hpp"
#include "training.hpp"

namespace typeformer {

// The state of a DTraining run over a step workspace (train/step.hpp): Algorithm 13 with the
// trainable part S (train_all: θ) and the activation memory of a step, minibatches and AdamW as
// training_state's; the gradient and Adam's moments have the trainable part's type. Threads as
// training_state's (one step workspace and one gradient per worker). A step is Algorithm 10's:
// the state of another architecture is one error naming the DTransformer it needs.
template <class Model, trainable_selection S = train_all,
          activation_memory Memory = recompute_activations, std::size_t Threads = 1>
struct step_training_state {
    static_assert(sizeof(decltype(detail::shape_error_of<in::step_training_state>(
        detail::check_architecture<DTransformer, Model>()))));
};
template <class T, class cfg, class S, class Memory, std::size_t Threads>
struct step_training_state<DTransformer<T, cfg>, S, Memory, Threads> : training_progress {
    static_assert(Threads >= 1, "step_training_state: at least one thread");
    using Model = DTransformer<T, cfg>;
    using part_type = trainable<Model, S>;
    using workspace_type = step_workspace<Model, S, Memory>;
    static constexpr std::size_t l_max = Model::traits::l_max::size;
    static constexpr std::size_t threads = Threads;

    struct worker_type {
        part_type grads{};
        workspace_type ws{};
        std::array<token, l_max> x_tilde{}, targets{};
    };
    part_type grads{};             // Σ ∇ over the batch, the trainable part's type
    adam_state<part_type> adam{};  // m, v of the trainable part, t
    workspace_type ws{};
    std::array<token, l_max> x_tilde{}, targets{};
    std::array<worker_type, Threads - 1> helpers{};
};

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

// Algorithm 13 over a step workspace, every parameter trained (θ): its memory is the step's.
template <class T, class cfg, class Memory, std::size_t Threads, class Dataset,
          class Observer = detail::no_observer>
    requires sequence_dataset<Dataset, DTransformer<T, cfg>> status
    DTraining(DTransformer<T, cfg>& model, const Dataset& data, const training_options& opt,
              step_training_state<DTransformer<T, cfg>, train_all, Memory, Threads>& st,
              Observer&& observer = {}) {
        auto gradient = [&](std::size_t n, std::size_t, const auto& w, T& loss,
                            std::size_t& tokens) {
            const std::span<const token> x(data[n]);  // 3: ℓ ← length(x_n)
            tokens = x.empty() ? 0 : x.size() - 1;
            return try_loss_and_grad(model, x, w.grads, w.ws, loss);  // 4–5
        };
        return detail::train_loop(model, std::size(data), gradient, opt, st, observer);
    }

// Algorithm 13 training the part tr of a frozen base (fine-tuning): the optimiser updates tr.
template <class T, class cfg, partial_trainable<DTransformer<T, cfg>> Tr, class Memory,
          std::size_t Threads, class Dataset, class Observer = detail::no_observer>
    requires sequence_dataset<Dataset, DTransformer<T, cfg>> status DTraining(
        const DTransformer<T, cfg>& base, Tr& tr, const Dataset& data, const training_options& opt,
        step_training_state<DTransformer<T, cfg>, selection_of<Tr>, Memory, Threads>& st,
        Observer&& observer = {}) {
        auto gradient = [&](std::size_t n, std::size_t, const auto& w, T& loss,
                            std::size_t& tokens) {
            const std::span<const token> x(data[n]);  // 3: ℓ ← length(x_n)
            tokens = x.empty() ? 0 : x.size() - 1;
            return try_loss_and_grad(base, tr, x, w.grads, w.ws, loss);  // 4–5, ∇ of tr
        };
        return detail::train_loop(tr, std::size(data), gradient, opt, st, observer);
    }

}  // namespace typed

namespace detail {
template <class Model, class S, class Memory, std::size_t Threads>
struct belongs_to<step_training_state<Model, S, Memory, Threads>> {
    using model = Model;
    template <class M>
    using role = training_state_of<M>;
};
}  // namespace detail

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
// Fine-tuning, DTraining(base, tr, data, opt, st): a part or a state of another model, or a
// dataset of another vocabulary (the form above cannot take a part for its dataset).
namespace detail {
template <class Model, class Part>
concept fine_tuning_call = architecture<Model> && is_trainable_part<std::remove_const_t<Part>>;
}  // namespace detail
template <class Model, class Part, class Data, class... A>
    requires(
        detail::fine_tuning_call<Model, Part> &&
        !detail::DTraining_accepts<const Model&, Part&, const Data&, const training_options&, A...>)
auto DTraining(const Model& base, Part& tr, const Data& data, const training_options& opt,
               A&&... args)
    -> decltype(detail::shape_error_of<in::Algorithm_13_DTraining>(
        detail::first_error(detail::check_architecture<DTransformer, Model>(),
                            detail::model_call_error<Model, Part&, const Data&, A...>())));

}  // namespace typeformer
