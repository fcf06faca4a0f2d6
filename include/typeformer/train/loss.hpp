// The losses of the training Algorithms 11–13 and their gradients.
//
//   loss_and_grad(model, x, grads[, ws])             DTransformer, Algorithm 13 line 5:
//        loss(θ) = −Σ_{t=1}^{ℓ−1} log P_θ[x[t+1], t]   (0-based: column t predicts x[t + 1])
//   loss_and_grad(model, x_tilde, x, grads[, ws])    ETransformer, Algorithm 12 lines 7–9:
//        T̃ = {t : x̃[t] = mask_token},  loss(θ) = −Σ_{t∈T̃} log P_θ[x[t], t],  P_θ = ETransformer(x̃)
//   loss_and_grad(model, z, x, grads[, ws])          EDTransformer, Algorithm 11 line 5:
//        loss(θ) = −Σ_{t=1}^{ℓ−1} log P_θ[x[t+1], t],  P_θ = EDTransformer(z, x)
//   loss(...)                                        the same losses without the gradient
//
// Sums, natural log, computed from the logits by log-softmax (never log of P). loss_and_grad
// ADDS ∇loss(θ) into grads (PyTorch's convention: zero grads yourself between steps) and returns
// the loss. The try_ forms return a status and touch neither grads nor the model on bad input;
// the plain forms throw std::invalid_argument (host) or stop at TYPEFORMER_CHECK. The forms
// without ws allocate a training workspace for the call and free it (host builds only): in a
// training loop pass your own, made once.
#pragma once

#include <cstddef>
#include <span>

#if TYPEFORMER_HAS_EXCEPTIONS
#include <memory>
#endif

#include "../kernels.hpp"
#include "../models/dtransformer.hpp"
#include "../models/edtransformer.hpp"
#include "../models/etransformer.hpp"
#include "../models/forward.hpp"
#include "../models/status.hpp"
#include "../models/workspace.hpp"
#include "../token.hpp"
#include "step.hpp"  // its loss_and_grad and loss forms, before the fallbacks below

namespace typeformer {

namespace detail {

// Which token each column of the logits is scored against (no_target: the column does not count).
// Algorithms 11 and 13, line 5: the target of column t is x[t + 1]; the last column has none.
struct next_token {
    std::span<const token> x;
    std::size_t columns() const noexcept { return x.size(); }
    token operator()(std::size_t t) const noexcept {
        return t + 1 < x.size() ? x[t + 1] : no_target;
    }
};
// Algorithm 12, lines 7 and 9: column t counts iff x̃[t] = mask_token (t ∈ T̃), with target x[t].
template <std::size_t NV>
struct masked_token {
    std::span<const token> x_tilde, x;
    std::size_t columns() const noexcept { return x.size(); }
    token operator()(std::size_t t) const noexcept {
        return x_tilde[t] == mask_token<NV> ? x[t] : no_target;
    }
};

// −Σ_t log softmax(logits)[target(t), t] and its gradient into ws.scratch.dlogits; the targets
// go to ws.scratch.targets (a training workspace's buffer).
template <class Targets, class WS>
auto loss_backward_from_logits(const Targets& target, WS& ws) noexcept {
    auto& targets = ws.scratch.targets;
    for (std::size_t t = 0; t < target.columns(); ++t)
        targets[t] = target(t);
    auto& dlogits = ws.scratch.dlogits;
    dlogits.resize_cols(target.columns());
    fill(dlogits, 0);
    return cross_entropy_backward(ws.out, std::span<const token>(targets.data(), target.columns()),
                                  dlogits);
}

// −log softmax(ws.out[:, t])[target]: one column's term (no target buffer needed, so an inference
// workspace can evaluate a loss too).
template <class WS>
auto column_loss(const WS& ws, std::size_t t, token target) noexcept {
    const auto out = cview(ws.out);
    const decltype(out) column{out.ptr + t * out.ld, out.ld, out.n_rows, 1};
    return cross_entropy(column, std::span<const token>(&target, 1));
}

// −Σ_t log softmax(ws.out)[target(t), t] over the columns with a target, from the logits in ws.out
// (any workspace).
template <class Targets, class WS>
auto loss_from_logits(const Targets& target, const WS& ws) noexcept {
    decltype(column_loss(ws, 0, 0)) sum = 0;
    for (std::size_t t = 0; t < target.columns(); ++t)
        if (const token y = target(t); y != no_target)
            sum += column_loss(ws, t, y);
    return sum;
}

// Given targets: column t is scored against targets[t] (no_target: not at all). BERT's 80/10/10
// masking scores positions that were replaced by a random token or left unchanged as well.
struct given_targets {
    std::span<const token> targets;
    std::size_t columns() const noexcept { return targets.size(); }
    token operator()(std::size_t t) const noexcept { return targets[t]; }
};

// The targets' validity for Algorithm 12 (x̃ is the model input, x the targets).
template <class Model>
input_report inspect_masked(std::span<const token> x_tilde, std::span<const token> x) noexcept {
    input_report r = inspect<Model>(x_tilde, "x_tilde");
    if (r.code != status::ok)
        return r;
    if (x.size() != x_tilde.size()) {
        r.code = status::length_mismatch;
        r.which = "x";
        r.length = x_tilde.size();
        r.other_length = x.size();
        return r;
    }
    return inspect<Model>(x, "x");
}

// The plain forms: stop on bad input (std::invalid_argument on a host, TYPEFORMER_CHECK
// otherwise), then the try_ form of Model's architecture, which cannot fail.
template <class Model, class... Inputs>
typename Model::value_type checked_loss_and_grad(const input_report& r, const Model& model,
                                                 Inputs&... inputs) {
    require_valid<Model>(r);
    typename Model::value_type loss{};
    try_loss_and_grad(model, inputs..., loss);  // found by ADL: each architecture's below
    return loss;
}

}  // namespace detail

inline namespace typed {

// ---- DTransformer: Algorithm 13 ----

template <class T, class cfg>
status try_loss_and_grad(const DTransformer<T, cfg>& model, tokens_for<DTransformer<T, cfg>> x,
                         DTransformer<T, cfg>& grads, training_workspace<DTransformer<T, cfg>>& ws,
                         T& loss) noexcept {
    const input_report r = detail::inspect<DTransformer<T, cfg>>(x, "x");
    if (r.code != status::ok)
        return r.code;
    detail::model_impl<DTransformer<T, cfg>>::logits(model, x, ws);  // 4: P_θ ← DTransformer(x | θ)
    loss = detail::loss_backward_from_logits(detail::next_token{x}, ws);      // 5
    detail::model_impl<DTransformer<T, cfg>>::backward(model, x, ws, grads);  // ∇loss(θ)
    return status::ok;
}

template <class T, class cfg>
T loss_and_grad(const DTransformer<T, cfg>& model, tokens_for<DTransformer<T, cfg>> x,
                DTransformer<T, cfg>& grads, training_workspace<DTransformer<T, cfg>>& ws) {
    return detail::checked_loss_and_grad(detail::inspect<DTransformer<T, cfg>>(x, "x"), model, x,
                                         grads, ws);
}

#if TYPEFORMER_HAS_EXCEPTIONS
template <class T, class cfg>
T loss_and_grad(const DTransformer<T, cfg>& model, tokens_for<DTransformer<T, cfg>> x,
                DTransformer<T, cfg>& grads) {
    return loss_and_grad(model, x, grads,
                         *std::make_unique<training_workspace<DTransformer<T, cfg>>>());
}
#endif

// The loss alone (any workspace): Algorithm 13 line 5 at θ.
template <class T, class cfg, workspace_kind K>
T loss(const DTransformer<T, cfg>& model, tokens_for<DTransformer<T, cfg>> x,
       workspace<DTransformer<T, cfg>, K>& ws) {
    logits(model, x, ws);
    return detail::loss_from_logits(detail::next_token{x}, ws);
}

// ---- ETransformer: Algorithm 12 ----

template <class T, class cfg>
status try_loss_and_grad(const ETransformer<T, cfg>& model,
                         tokens_for<ETransformer<T, cfg>> x_tilde,
                         tokens_for<ETransformer<T, cfg>> x, ETransformer<T, cfg>& grads,
                         training_workspace<ETransformer<T, cfg>>& ws, T& loss) noexcept {
    const input_report r = detail::inspect_masked<ETransformer<T, cfg>>(x_tilde, x);
    if (r.code != status::ok)
        return r.code;
    // 8: P_θ ← ETransformer(x̃ | θ)
    detail::model_impl<ETransformer<T, cfg>>::logits(model, x_tilde, ws);
    constexpr std::size_t NV = ETransformer<T, cfg>::N_V::size;
    loss = detail::loss_backward_from_logits(detail::masked_token<NV>{x_tilde, x}, ws);  // 9
    detail::model_impl<ETransformer<T, cfg>>::backward(model, x_tilde, ws, grads);  // ∇loss(θ)
    return status::ok;
}

template <class T, class cfg>
T loss_and_grad(const ETransformer<T, cfg>& model, tokens_for<ETransformer<T, cfg>> x_tilde,
                tokens_for<ETransformer<T, cfg>> x, ETransformer<T, cfg>& grads,
                training_workspace<ETransformer<T, cfg>>& ws) {
    return detail::checked_loss_and_grad(detail::inspect_masked<ETransformer<T, cfg>>(x_tilde, x),
                                         model, x_tilde, x, grads, ws);
}

#if TYPEFORMER_HAS_EXCEPTIONS
template <class T, class cfg>
T loss_and_grad(const ETransformer<T, cfg>& model, tokens_for<ETransformer<T, cfg>> x_tilde,
                tokens_for<ETransformer<T, cfg>> x, ETransformer<T, cfg>& grads) {
    return loss_and_grad(model, x_tilde, x, grads,
                         *std::make_unique<training_workspace<ETransformer<T, cfg>>>());
}
#endif

// Algorithm 12's loss with the scored positions given explicitly: −Σ_{t: targets[t] ≠ no_target}
// log P_θ[targets[t], t], P_θ = ETransformer(x̃). ETraining's BERT replacement uses it; with
// targets[t] = x[t] exactly where x̃[t] = mask_token it is the loss above.
template <class T, class cfg>
status try_loss_and_grad_targets(const ETransformer<T, cfg>& model,
                                 tokens_for<ETransformer<T, cfg>> x_tilde,
                                 std::span<const token> targets, ETransformer<T, cfg>& grads,
                                 training_workspace<ETransformer<T, cfg>>& ws, T& loss) noexcept {
    using model_type = ETransformer<T, cfg>;
    input_report r = detail::inspect<model_type>(x_tilde, "x_tilde");
    if (r.code == status::ok && targets.size() != x_tilde.size())
        r.code = status::length_mismatch;
    for (std::size_t t = 0; r.code == status::ok && t < targets.size(); ++t)
        if (targets[t] != no_target && targets[t] >= model_type::N_V::size)
            r.code = status::token_out_of_range;
    if (r.code != status::ok)
        return r.code;
    detail::model_impl<model_type>::logits(model, x_tilde, ws);                    // 8
    loss = detail::loss_backward_from_logits(detail::given_targets{targets}, ws);  // 9
    detail::model_impl<model_type>::backward(model, x_tilde, ws, grads);
    return status::ok;
}

// The loss alone: Algorithm 12 line 9 at θ.
template <class T, class cfg, workspace_kind K>
T loss(const ETransformer<T, cfg>& model, tokens_for<ETransformer<T, cfg>> x_tilde,
       tokens_for<ETransformer<T, cfg>> x, workspace<ETransformer<T, cfg>, K>& ws) {
    detail::require_valid<ETransformer<T, cfg>>(
        detail::inspect_masked<ETransformer<T, cfg>>(x_tilde, x));
    logits(model, x_tilde, ws);
    constexpr std::size_t NV = ETransformer<T, cfg>::N_V::size;
    return detail::loss_from_logits(detail::masked_token<NV>{x_tilde, x}, ws);
}

// ---- EDTransformer: Algorithm 11 ----

template <class T, class cfg>
status try_loss_and_grad(const EDTransformer<T, cfg>& model, tokens_for<EDTransformer<T, cfg>> z,
                         tokens_for<EDTransformer<T, cfg>> x, EDTransformer<T, cfg>& grads,
                         training_workspace<EDTransformer<T, cfg>>& ws, T& loss) noexcept {
    const input_report r = detail::inspect_pair<EDTransformer<T, cfg>>(z, x);
    if (r.code != status::ok)
        return r.code;
    // 4: P_θ ← EDTransformer(z, x | θ)
    detail::model_impl<EDTransformer<T, cfg>>::logits(model, z, x, ws);
    loss = detail::loss_backward_from_logits(detail::next_token{x}, ws);          // 5
    detail::model_impl<EDTransformer<T, cfg>>::backward(model, z, x, ws, grads);  // ∇loss(θ)
    return status::ok;
}

template <class T, class cfg>
T loss_and_grad(const EDTransformer<T, cfg>& model, tokens_for<EDTransformer<T, cfg>> z,
                tokens_for<EDTransformer<T, cfg>> x, EDTransformer<T, cfg>& grads,
                training_workspace<EDTransformer<T, cfg>>& ws) {
    return detail::checked_loss_and_grad(detail::inspect_pair<EDTransformer<T, cfg>>(z, x), model,
                                         z, x, grads, ws);
}

#if TYPEFORMER_HAS_EXCEPTIONS
template <class T, class cfg>
T loss_and_grad(const EDTransformer<T, cfg>& model, tokens_for<EDTransformer<T, cfg>> z,
                tokens_for<EDTransformer<T, cfg>> x, EDTransformer<T, cfg>& grads) {
    return loss_and_grad(model, z, x, grads,
                         *std::make_unique<training_workspace<EDTransformer<T, cfg>>>());
}
#endif

// The loss alone: Algorithm 11 line 5 at θ.
template <class T, class cfg, workspace_kind K>
T loss(const EDTransformer<T, cfg>& model, tokens_for<EDTransformer<T, cfg>> z,
       tokens_for<EDTransformer<T, cfg>> x, workspace<EDTransformer<T, cfg>, K>& ws) {
    logits(model, z, x, ws);
    return detail::loss_from_logits(detail::next_token{x}, ws);
}

}  // namespace typed

// ---- a call of no form above: one error naming both models, or both vocabularies ----

TYPEFORMER_MODEL_FALLBACK(loss_and_grad, in::loss_and_grad, detail::step_call_error<Model, A...>());
TYPEFORMER_MODEL_FALLBACK(try_loss_and_grad, in::try_loss_and_grad,
                          detail::step_call_error<Model, A...>());
TYPEFORMER_MODEL_FALLBACK(loss, in::loss, detail::step_call_error<Model, A...>());
TYPEFORMER_MODEL_FALLBACK(try_loss_and_grad_targets, in::try_loss_and_grad_targets,
                          detail::first_error(detail::check_architecture<ETransformer, Model>(),
                                              detail::model_call_error<Model, A...>()));

}  // namespace typeformer
