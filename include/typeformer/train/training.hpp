// What the training Algorithms 11–13 share: their options, the caller-owned state a run needs,
// the report of each step, and the step itself. DTraining, ETraining and EDTraining
// (dtraining.hpp, etraining.hpp, edtraining.hpp) supply one sequence's gradient; this file turns
// the paper's θ ← θ − η·∇loss(θ) into what practitioners run (§8):
//
//   minibatches     the gradient of B sequences is the sum of theirs (loss_and_grad adds), or
//                   their mean (loss_reduction::mean_per_sequence), or the per-token mean
//                   (mean_per_token: η does not depend on sequence length)
//   optimizer       sgd (the paper's update) or adamw (decoupled weight decay; γ, β and biases
//                   undecayed unless decay_gains_and_biases)
//   clip_norm       ∇ ← ∇·c/‖∇‖ when ‖∇‖ > c (one global L2 norm)
//   schedule        linear warm-up and cosine decay of η (schedule.hpp)
//   shuffle         each epoch visits the dataset in a seeded order
//   observer        called after every step with a step_report; returning false stops the run
//
// A NaN or ∞ loss or gradient is reported (status::non_finite, with the step) and the step is
// not applied: the model, the optimiser state and the position in the data stay at the last
// good step, so the run can be resumed (e.g. with a smaller η) from the same state.
//
// The state (gradients, Adam's m and v, a training workspace, counters, the generator) belongs
// to the caller: allocate it once (`std::make_unique<tf::training_state<Model>>()` on a host, a
// static object on a microcontroller); a step allocates nothing. Running the same algorithm again
// with the same state continues where it stopped (checkpoints: io/checkpoint.hpp).
//
// Threads: training_state<Model, Threads> holds Threads − 1 more gradient buffers and
// workspaces. Worker k computes the gradients of the batch's sequences k, k + Threads, … into its
// own buffer; the buffers are then added in the order 0, 1, …, so the same seed and the same
// Threads give bit-identical parameters, and any Threads gives the one-thread result within
// rounding. For a big model that sum and the optimiser's walk are split between the threads too
// (update_parts). Built with OpenMP (-fopenmp) the workers run on Threads threads; without it
// they run one after the other with the same result (microcontrollers). The masks of Algorithm 12
// are drawn per sequence from one draw of the state's generator per step, so they do not depend
// on Threads.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "../models/diagnose.hpp"
#include "../models/forward.hpp"
#include "../models/status.hpp"
#include "../models/workspace.hpp"
#include "../random.hpp"
#include "../token.hpp"
#include "adam.hpp"
#include "clip.hpp"
#include "schedule.hpp"
#include "sgd.hpp"

namespace typeformer {

enum class optimizer { sgd, adamw };
enum class loss_reduction { sum, mean_per_sequence, mean_per_token };

struct training_options {
    std::size_t epochs = 1;      // N_epochs
    std::size_t batch_size = 1;  // sequences per step (the paper's algorithms: 1)
    optimizer method = optimizer::adamw;
    double lr = 1e-3;  // η; the peak under a schedule
    double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
    double weight_decay = 0.0;            // AdamW's λ (decoupled)
    bool decay_gains_and_biases = false;  // decay γ, β, b_* too
    double clip_norm = 0.0;               // 0: no clipping
    lr_schedule schedule{};               // warm-up and cosine decay
    loss_reduction reduction = loss_reduction::sum;
    double p_mask = 0.15;           // Algorithm 12: the probability that a token is masked
    bool bert_replacement = false;  // Algorithm 12: of the chosen tokens, 80% mask, 10% random,
                                    // 10% unchanged (BERT), all scored; false: the paper's rule
    bool shuffle = true;
    std::uint64_t seed = 0;  // shuffling and masking
};

// The status of options (before anything is touched).
inline status check_training_options(const training_options& o) noexcept {
    auto finite = [](double v) { return std::isfinite(v); };
    if (!finite(o.lr) || o.lr <= 0)
        return status::invalid_learning_rate;
    if (o.batch_size == 0 || !finite(o.clip_norm) || o.clip_norm < 0 ||
        !finite(o.schedule.min_lr) || o.schedule.min_lr < 0)
        return status::invalid_training_options;
    using R = step_real;  // adam_options' precision (config.hpp)
    if (o.method == optimizer::adamw && !valid_adam_options({.lr = R(o.lr),
                                                             .beta1 = R(o.beta1),
                                                             .beta2 = R(o.beta2),
                                                             .eps = R(o.eps),
                                                             .weight_decay = R(o.weight_decay)}))
        return status::invalid_adam_options;
    return status::ok;
}

// What the observer sees after each step.
struct step_report {
    std::uint64_t step = 0;   // steps applied so far, this one included (1-based)
    std::uint64_t epoch = 0;  // 0-based
    double loss = 0;          // the batch's loss under the reduction
    double loss_sum = 0;      // Σ over the batch of the paper's loss (sums over positions)
    std::size_t tokens = 0;   // positions scored in the batch
    std::size_t sequences = 0;
    double lr = 0;             // η applied in this step
    double grad_norm = 0;      // ‖∇‖ before clipping
    status code = status::ok;  // non_finite: this step was not applied
};

namespace detail {
// What a training_worker is not made for: an int8 model (the float model trains), or something
// that is not a model.
template <class Model>
constexpr auto training_worker_error() {
    if constexpr (requires { typename Model::float_model; })
        return what<q8_of<typename Model::float_model>, needed<typename Model::float_model>>{};
    else
        return what<template_argument<Model>, needed<a_float_model>>{};
}
}  // namespace detail

// One worker's buffers: its share of the gradient, a workspace, Algorithm 12's masked copy. Of
// anything but a float model: one error naming training_worker and the argument.
template <class Model>
struct training_worker {
    static_assert(sizeof(decltype(detail::shape_error_of<in::training_worker>(
        detail::training_worker_error<Model>()))));
};
template <class Model>
    requires(detail::architecture<Model> && !requires { typename Model::float_model; })
struct training_worker<Model> {
    static constexpr std::size_t l_max = Model::traits::l_max::size;
    Model grads{};
    training_workspace<Model> ws{};
    std::array<token, l_max> x_tilde{}, targets{};
};

// Where a run is: what a checkpoint saves besides the tensors (io/checkpoint.hpp).
struct training_progress {
    std::uint64_t step = 0;                  // steps applied
    std::uint64_t epoch = 0;                 // the current epoch, 0-based
    std::uint64_t next = 0;                  // sequences of this epoch done
    std::uint64_t order_a = 1, order_b = 0;  // this epoch's order: n ↦ (a·n + b) mod N_data
    rng gen{0};                              // shuffling and masking
    bool started = false;                    // gen seeded from the options
};

template <class Model, std::size_t Threads = 1>
struct training_state : training_progress {
    static_assert(Threads >= 1, "training_state: at least one thread");
    using T = typename Model::value_type;
    static constexpr std::size_t l_max = Model::traits::l_max::size;
    static constexpr std::size_t threads = Threads;

    // Σ ∇loss over the batch, the model's type (worker 0's, then the sum); the reduction's mean
    // and the clipping factor are applied as the optimiser reads it
    Model grads{};
    adam_state<Model> adam{};        // m, v, t
    training_workspace<Model> ws{};  // worker 0's activations of one sequence at l_max
    std::array<token, l_max> x_tilde{}, targets{};  // Algorithm 12's masked copy and targets
    std::array<training_worker<Model>, Threads - 1> helpers{};  // workers 1 … Threads − 1
};

// What the gradient of one sequence may use: worker k's buffers, and the step's mask seed.
// Grads: the gradient's type (the model's, or a trainable part's, train/trainable.hpp); WS: the
// workspace of one sequence (a training_workspace, or a step_workspace, train/step.hpp).
template <class Grads, class WS = training_workspace<Grads>>
struct worker_buffers {
    Grads& grads;
    WS& ws;
    token* x_tilde;
    token* targets;
    std::uint64_t seed;  // one draw of the state's generator per step
};

// A dataset of Algorithms 12 and 13: its sequences convert to the model's input (untyped ids, or
// ids typed with the model's N_V).
template <class Dataset, class Model>
concept sequence_dataset = requires(const Dataset& data, std::size_t n) {
    { data[n] } -> std::convertible_to<tokens_for<Model>>;
    std::size(data);
};

namespace detail {

template <class Model, std::size_t Threads>
struct belongs_to<training_state<Model, Threads>> {
    using model = Model;
    template <class M>
    using role = training_state_of<M>;
};

inline std::uint64_t gcd64(std::uint64_t a, std::uint64_t b) noexcept {
    while (b != 0)
        a = std::exchange(b, a % b);
    return a;
}

// A seeded order of [0, n) without memory: n ↦ (a·n + b) mod N with a coprime to N.
template <class State>
void new_epoch_order(State& st, std::size_t n_data, bool shuffle) noexcept {
    st.order_a = 1;
    st.order_b = 0;
    if (!shuffle || n_data < 2)
        return;
    const auto N = static_cast<std::uint32_t>(n_data);
    do
        st.order_a = 1 + prng::uniform_below(st.gen, N - 1);
    while (gcd64(st.order_a, N) != 1);
    st.order_b = prng::uniform_below(st.gen, N);
}

template <class State>
std::size_t data_index(const State& st, std::size_t i, std::size_t n_data) noexcept {
    return static_cast<std::size_t>((st.order_a * i + st.order_b) % n_data);
}

template <class F, class R>
bool notify(F& observer, const R& r) {
    if constexpr (std::is_same_v<decltype(observer(r)), void>) {
        observer(r);
        return true;
    } else {
        return static_cast<bool>(observer(r));
    }
}

struct no_observer {
    constexpr bool operator()(const step_report&) const noexcept { return true; }
};

// A training state (training_state, dtraining.hpp's step_training_state) has: grads, adam, ws,
// x_tilde, targets, helpers (each with grads, ws, x_tilde, targets), the training_progress, and
// the constant threads.
template <class State>
auto worker(State& st, std::size_t k, std::uint64_t seed) noexcept {
    using W = worker_buffers<decltype(st.grads), decltype(st.ws)>;
    if (k == 0)
        return W{st.grads, st.ws, st.x_tilde.data(), st.targets.data(), seed};
    auto& h = st.helpers[k - 1];
    return W{h.grads, h.ws, h.x_tilde.data(), h.targets.data(), seed};
}

// st.grads += the helpers' gradients, added in the order 1, 2, … (a fixed order: the same
// Threads gives the same bits), over the scalars of part `part` of `parts` of every leaf, and
// Σ∇² of those scalars of the sum, in one pass over memory.
template <class State, std::size_t... K>
double sum_worker_gradients(State& st, std::size_t part, std::size_t parts,
                            std::index_sequence<K...>) noexcept {
    square_sums sq;
    for_each_param_zip(
        [&](const param_name&, auto& x, const auto&... y) {
            auto* xp = x.data();
            constexpr std::size_t n = leaf_elements<decltype(x)>;
            const auto [first, last] = leaf_part::of(n, part, parts);
            sq.each<n>(xp, first, last,
                       [&]([[maybe_unused]] std::size_t i) { ((xp[i] += y.data()[i]), ...); });
        },
        st.grads, st.helpers[K].grads...);
    return sq.total();
}

// How many parts the step's walks after the workers (the sum of their gradients, AdamW or SGD) are
// split into, one per thread. They stream the model's size several times over (baby's 10.8M
// scalars: 10 ms of a 370 ms step on one core); below 2^17 scalars (tiny's 28.5k: ~25 µs) the
// split saves less than a parallel region's start costs.
inline constexpr std::size_t update_split_scalars = std::size_t{1} << 17;
template <class Model, std::size_t Threads>
inline constexpr std::size_t update_parts =
    Threads > 1 && parameter_count<Model> >= update_split_scalars ? Threads : 1;

// f(part, parts) for each part, the parts on update_parts threads.
template <class Model, std::size_t Threads, class F>
void for_each_update_part(F&& f) {
    constexpr std::size_t parts = update_parts<Model, Threads>;
    if constexpr (parts == 1) {
        f(std::size_t{0}, std::size_t{1});
    } else {
#if defined(_OPENMP)
#pragma omp parallel for num_threads(parts) schedule(static, 1)
#endif
        for (std::size_t k = 0; k < parts; ++k)
            f(k, parts);
    }
}

// The loop of Algorithms 11–13 with minibatches. gradient(n, b, w, loss, tokens) adds ∇loss of
// dataset element n (the batch's b-th) into w.grads (loss_and_grad's convention), using only
// worker w's buffers, and returns a status. model: what the optimiser updates (θ, or a trainable
// part of it), of st.grads' type.
template <class Model, class State, class Gradient, class Observer>
status train_loop(Model& model, std::size_t n_data, Gradient&& gradient,
                  const training_options& opt, State& st, Observer& observer) {
    using T = typename Model::value_type;
    constexpr std::size_t Threads = State::threads;
    if (const status s = check_training_options(opt); s != status::ok)
        return s;
    if (n_data == 0)
        return status::ok;
    if (!st.started) {
        st.gen = rng(opt.seed);
        new_epoch_order(st, n_data, opt.shuffle);
        st.started = true;
    }
    while (st.epoch < opt.epochs) {  // 1: for i = 1, 2, …, N_epochs
        const std::size_t batch = std::min<std::size_t>(opt.batch_size, n_data - st.next);
        const rng gen_before = st.gen;  // restored if the step is refused
        const std::uint64_t seed = st.gen();
        step_report r{};
        r.epoch = st.epoch;
        r.sequences = batch;
        // 2: for n = 1, 2, … N_data, B at a time: worker k takes the batch's k, k + Threads, …
        std::array<double, Threads> loss_k{};
        std::array<std::size_t, Threads> tokens_k{};
        std::array<status, Threads> status_k{};
        auto work = [&](std::size_t k) {
            const auto w = worker(st, k, seed);
            zero(w.grads);
            for (std::size_t b = k; b < batch; b += Threads) {
                const std::size_t n = data_index(st, st.next + b, n_data);
                T loss{};
                std::size_t tokens = 0;
                if (const status s = gradient(n, b, w, loss, tokens); s != status::ok) {
                    status_k[k] = s;
                    return;
                }
                loss_k[k] += static_cast<double>(loss);
                tokens_k[k] += tokens;
            }
        };
        if constexpr (Threads == 1) {
            work(0);
        } else {
#if defined(_OPENMP)
#pragma omp parallel for num_threads(Threads) schedule(static, 1)
#endif
            for (std::size_t k = 0; k < Threads; ++k)
                work(k);
        }
        for (std::size_t k = 0; k < Threads; ++k) {
            if (status_k[k] != status::ok) {
                st.gen = gen_before;
                return status_k[k];  // a bad sequence in the data: nothing was applied
            }
            r.loss_sum += loss_k[k];
            r.tokens += tokens_k[k];
        }
        // The reduction's factor and the clipping factor are not applied to st.grads in passes
        // of their own: the norm scales with them, and the optimiser multiplies ∇ as it reads it.
        std::array<double, update_parts<Model, Threads>> sq_k{};  // per part, added in order
        for_each_update_part<Model, Threads>([&](std::size_t k, std::size_t parts) {
            sq_k[k] = sum_worker_gradients(st, k, parts, std::make_index_sequence<Threads - 1>{});
        });
        double sq = 0;
        for (const double x : sq_k)
            sq += x;
        const double sum_norm = std::sqrt(sq);
        double scale = 1.0;
        if (opt.reduction == loss_reduction::mean_per_token)
            scale = r.tokens > 0 ? 1.0 / static_cast<double>(r.tokens) : 0.0;
        else if (opt.reduction == loss_reduction::mean_per_sequence)
            scale = 1.0 / static_cast<double>(batch);
        r.loss = r.loss_sum * scale;
        r.grad_norm = sum_norm * scale;
        r.lr = learning_rate(opt.schedule, opt.lr, st.step);
        if (!std::isfinite(r.loss) || !std::isfinite(r.grad_norm)) {
            st.gen = gen_before;
            r.step = st.step;
            r.code = status::non_finite;
            notify(observer, r);
            return status::non_finite;
        }
        if (opt.clip_norm > 0 && r.grad_norm > 0) {
            const double coef = opt.clip_norm / (r.grad_norm + 1e-6);
            if (coef < 1.0)
                scale *= coef;
        }
        // 6: θ ← θ − η·∇loss(θ), or AdamW
        if (opt.method == optimizer::sgd) {
            for_each_update_part<Model, Threads>([&](std::size_t k, std::size_t parts) {
                sgd_update(model, st.grads, r.lr * scale, k, parts);  // sgd_step, split
            });
        } else {
            using R = step_real;  // adam_options' precision (config.hpp)
            const adam_options ao{.lr = R(r.lr),
                                  .beta1 = R(opt.beta1),
                                  .beta2 = R(opt.beta2),
                                  .eps = R(opt.eps),
                                  .weight_decay = R(opt.weight_decay),
                                  .decay = weight_decay_mode::decoupled,
                                  .decay_gains_and_biases = opt.decay_gains_and_biases,
                                  .grad_scale = R(scale)};
            st.adam.step += 1;  // adam_step, a part on each thread
            for_each_update_part<Model, Threads>([&](std::size_t k, std::size_t parts) {
                adam_update(model, st.grads, st.adam, ao, k, parts);
            });
        }
        r.step = ++st.step;
        st.next += batch;
        if (st.next == n_data) {  // 8: the epoch's end
            st.next = 0;
            ++st.epoch;
            new_epoch_order(st, n_data, opt.shuffle);
        }
        if (!notify(observer, r))
            return status::ok;
    }
    return status::ok;  // 9: return θ̂ = θ
}

}  // namespace detail

// ---- the state of a model that does not train (shape_error.hpp) ----

// An int8 model (models/quantized.hpp) is for inference: its training state is one error naming
// the float model that trains (quantize it after training).
template <class Model, class Act>
struct quantized;
template <class Model, class Act, std::size_t Threads>
struct training_state<quantized<Model, Act>, Threads> {
    static_assert(sizeof(decltype(detail::shape_error_of<in::training_state>(
        detail::what<q8_of<Model>, needed<Model>>{}))));
};

}  // namespace typeformer
