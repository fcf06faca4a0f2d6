// Algorithm 12: θ̂ ← ETraining(x_{1:N_data}, θ), training an ETransformer (BERT) by masked
// language modelling, with the minibatches, AdamW, clipping and schedule of train/training.hpp.
//
//   data          N_data sequences (as DTraining's), 1 ≤ length ≤ l_max
//   x̃ (ℓ)         4–5: each x[t] is replaced by mask_token with probability p_mask, drawn from
//                 the state's seeded generator (one draw per step, split per sequence)
//   T̃             7: the masked positions, the only ones the loss scores (line 9)
//   BERT          opt.bert_replacement: of the chosen positions 80% become mask_token, 10% a
//                 random ordinary token (not a special one), 10% stay; all chosen are scored
#pragma once

#include <cstddef>
#include <span>

#include "../models/etransformer.hpp"
#include "../random.hpp"
#include "loss.hpp"
#include "training.hpp"

namespace typeformer {

namespace detail {

// Lines 4–7: x̃ and the targets (x[t] at the chosen positions, no_target elsewhere).
template <std::size_t NV, class Gen>
void mask_tokens(std::span<const token> x, double p_mask, bool bert, Gen& gen, token* x_tilde,
                 token* targets) noexcept {
    for (std::size_t t = 0; t < x.size(); ++t) {  // 4: for t = 1, 2, …, ℓ
        x_tilde[t] = x[t];
        targets[t] = no_target;
        if (!(prng::uniform01<double>(gen) < p_mask))
            continue;
        // 5: x̃[t] ← mask_token with probability p_mask;  7: t ∈ T̃
        targets[t] = x[t];
        if (!bert) {
            x_tilde[t] = mask_token<NV>;
            continue;
        }
        const double u = prng::uniform01<double>(gen);
        if (u < 0.8)
            x_tilde[t] = mask_token<NV>;
        else if (u < 0.9)
            x_tilde[t] = prng::uniform_below(gen, static_cast<std::uint32_t>(NV - 3));
    }
}

}  // namespace detail

inline namespace typed {

template <class T, class cfg, std::size_t Threads, class Dataset,
          class Observer = detail::no_observer>
    requires sequence_dataset<Dataset, ETransformer<T, cfg>> status
    ETraining(ETransformer<T, cfg>& model, const Dataset& data, const training_options& opt,
              training_state<ETransformer<T, cfg>, Threads>& st, Observer&& observer = {}) {
        using model_type = ETransformer<T, cfg>;
        constexpr std::size_t NV = cfg::N_V;
        if (!(opt.p_mask > 0.0 && opt.p_mask < 1.0))
            return status::invalid_p_mask;
        auto gradient = [&](std::size_t n, std::size_t b, const worker_buffers<model_type>& w,
                            T& loss, std::size_t& tokens) {
            const std::span<const token> x(data[n]);  // 3: ℓ ← length(x_n)
            if (const input_report r = detail::inspect<model_type>(x, "x"); r.code != status::ok)
                return r.code;
            // the b-th sequence's own stream of the step's seed: masks that no thread count changes
            std::uint64_t mix = w.seed + 0x9E3779B97F4A7C15ull * (b + 1);
            rng gen(prng::splitmix64(mix));
            detail::mask_tokens<NV>(x, opt.p_mask, opt.bert_replacement, gen, w.x_tilde, w.targets);
            const std::span<const token> x_tilde(w.x_tilde, x.size());
            const std::span<const token> targets(w.targets, x.size());
            tokens = 0;
            for (const token y : targets)
                tokens += y != no_target;
            // 8: P_θ ← ETransformer(x̃_n | θ);  9: loss(θ) = −Σ_{t∈T̃} log P_θ[x_n[t], t]
            return try_loss_and_grad_targets(model, x_tilde, targets, w.grads, w.ws, loss);
        };
        return detail::train_loop(model, std::size(data), gradient, opt, st, observer);
    }

}  // namespace typed

// ---- a call of no form above: one error naming both models, or both vocabularies ----

namespace detail {
template <class... A>
concept ETraining_accepts = requires(A&&... a) {
    typed::ETraining(static_cast<A&&>(a)...);
};
}  // namespace detail
// (opt is spelled out: a braced {...} argument deduces nothing in a pack)
template <class Model, class Data, class... A>
    requires(detail::architecture<Model> &&
             !detail::ETraining_accepts<Model&, const Data&, const training_options&, A...>)
auto ETraining(Model& model, const Data& data, const training_options& opt, A&&... args)
    -> decltype(detail::shape_error_of<in::Algorithm_12_ETraining>(
        detail::first_error(detail::check_architecture<ETransformer, Model>(),
                            detail::model_call_error<Model, const Data&, A...>())));

}  // namespace typeformer
