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
// without ws use a thread_local training workspace (host builds only).
#pragma once

#include <cstddef>
#include <span>

#include "../kernels.hpp"
#include "../models/dtransformer.hpp"
#include "../models/edtransformer.hpp"
#include "../models/etransformer.hpp"
#include "../models/forward.hpp"
#include "../models/status.hpp"
#include "../models/workspace.hpp"
#include "../token.hpp"

namespace typeformer {

namespace detail {

// Algorithms 11 and 13, line 5: the target of column t is x[t + 1]; the last column has none.
template <class WS>
std::span<const token> next_token_targets(std::span<const token> x, WS& ws) noexcept {
    auto& targets = ws.scratch.targets;
    const std::size_t l = x.size();
    for (std::size_t t = 0; t + 1 < l; ++t)
        targets[t] = x[t + 1];
    targets[l - 1] = no_target;
    return {targets.data(), l};
}

// Algorithm 12, lines 7 and 9: column t counts iff x̃[t] = mask_token, with target x[t].
template <std::size_t NV, class WS>
std::span<const token> masked_targets(std::span<const token> x_tilde, std::span<const token> x,
                                      WS& ws) noexcept {
    auto& targets = ws.scratch.targets;
    for (std::size_t t = 0; t < x.size(); ++t)
        targets[t] = x_tilde[t] == mask_token<NV> ? x[t] : no_target;  // 7: t ∈ T̃
    return {targets.data(), x.size()};
}

// −Σ_t log softmax(logits)[target[t], t] and its gradient into ws.scratch.dlogits.
template <class WS>
auto loss_backward_from_logits(std::span<const token> targets, WS& ws) noexcept {
    auto& dlogits = ws.scratch.dlogits;
    dlogits.resize_cols(targets.size());
    fill(dlogits, 0);
    return cross_entropy_backward(ws.out, targets, dlogits);
}

// −log softmax(ws.out[:, t])[target]: one column's term (no target buffer needed, so an inference
// workspace can evaluate a loss too).
template <class WS>
auto column_loss(const WS& ws, std::size_t t, token target) noexcept {
    const auto out = cview(ws.out);
    const decltype(out) column{out.ptr + t * out.ld, out.ld, out.n_rows, 1};
    return cross_entropy(column, std::span<const token>(&target, 1));
}

// Algorithms 11 and 13, line 5, from the logits in ws.out.
template <class WS>
auto next_token_loss(std::span<const token> x, const WS& ws) noexcept {
    decltype(column_loss(ws, 0, 0)) sum = 0;
    for (std::size_t t = 0; t + 1 < x.size(); ++t)
        sum += column_loss(ws, t, x[t + 1]);
    return sum;
}

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

}  // namespace detail

// ---- DTransformer: Algorithm 13 ----

template <class T, class cfg>
status try_loss_and_grad(const DTransformer<T, cfg>& model, std::span<const token> x,
                         DTransformer<T, cfg>& grads, training_workspace<DTransformer<T, cfg>>& ws,
                         T& loss) noexcept {
    const input_report r = detail::inspect<DTransformer<T, cfg>>(x, "x");
    if (r.code != status::ok)
        return r.code;
    detail::model_impl<DTransformer<T, cfg>>::logits(model, x, ws);  // 4: P_θ ← DTransformer(x | θ)
    loss = detail::loss_backward_from_logits(detail::next_token_targets(x, ws), ws);  // 5
    detail::model_impl<DTransformer<T, cfg>>::backward(model, x, ws, grads);          // ∇loss(θ)
    return status::ok;
}

template <class T, class cfg>
T loss_and_grad(const DTransformer<T, cfg>& model, std::span<const token> x,
                DTransformer<T, cfg>& grads, training_workspace<DTransformer<T, cfg>>& ws) {
    detail::require_valid<DTransformer<T, cfg>>(detail::inspect<DTransformer<T, cfg>>(x, "x"));
    T loss{};
    try_loss_and_grad(model, x, grads, ws, loss);
    return loss;
}

#if TYPEFORMER_HAS_EXCEPTIONS
template <class T, class cfg>
T loss_and_grad(const DTransformer<T, cfg>& model, std::span<const token> x,
                DTransformer<T, cfg>& grads) {
    return loss_and_grad(model, x, grads,
                         detail::thread_workspace<training_workspace<DTransformer<T, cfg>>>());
}
#endif

// The loss alone (any workspace): Algorithm 13 line 5 at θ.
template <class T, class cfg, workspace_kind K>
T loss(const DTransformer<T, cfg>& model, std::span<const token> x,
       workspace<DTransformer<T, cfg>, K>& ws) {
    logits(model, x, ws);
    return detail::next_token_loss(x, ws);
}

// ---- ETransformer: Algorithm 12 ----

template <class T, class cfg>
status try_loss_and_grad(const ETransformer<T, cfg>& model, std::span<const token> x_tilde,
                         std::span<const token> x, ETransformer<T, cfg>& grads,
                         training_workspace<ETransformer<T, cfg>>& ws, T& loss) noexcept {
    const input_report r = detail::inspect_masked<ETransformer<T, cfg>>(x_tilde, x);
    if (r.code != status::ok)
        return r.code;
    // 8: P_θ ← ETransformer(x̃ | θ)
    detail::model_impl<ETransformer<T, cfg>>::logits(model, x_tilde, ws);
    constexpr std::size_t NV = ETransformer<T, cfg>::N_V::size;
    loss = detail::loss_backward_from_logits(detail::masked_targets<NV>(x_tilde, x, ws), ws);  // 9
    detail::model_impl<ETransformer<T, cfg>>::backward(model, x_tilde, ws, grads);  // ∇loss(θ)
    return status::ok;
}

template <class T, class cfg>
T loss_and_grad(const ETransformer<T, cfg>& model, std::span<const token> x_tilde,
                std::span<const token> x, ETransformer<T, cfg>& grads,
                training_workspace<ETransformer<T, cfg>>& ws) {
    detail::require_valid<ETransformer<T, cfg>>(
        detail::inspect_masked<ETransformer<T, cfg>>(x_tilde, x));
    T loss{};
    try_loss_and_grad(model, x_tilde, x, grads, ws, loss);
    return loss;
}

#if TYPEFORMER_HAS_EXCEPTIONS
template <class T, class cfg>
T loss_and_grad(const ETransformer<T, cfg>& model, std::span<const token> x_tilde,
                std::span<const token> x, ETransformer<T, cfg>& grads) {
    return loss_and_grad(model, x_tilde, x, grads,
                         detail::thread_workspace<training_workspace<ETransformer<T, cfg>>>());
}
#endif

// The loss alone: Algorithm 12 line 9 at θ.
template <class T, class cfg, workspace_kind K>
T loss(const ETransformer<T, cfg>& model, std::span<const token> x_tilde, std::span<const token> x,
       workspace<ETransformer<T, cfg>, K>& ws) {
    detail::require_valid<ETransformer<T, cfg>>(
        detail::inspect_masked<ETransformer<T, cfg>>(x_tilde, x));
    logits(model, x_tilde, ws);
    constexpr std::size_t NV = ETransformer<T, cfg>::N_V::size;
    T sum = T(0);
    for (std::size_t t = 0; t < x.size(); ++t)
        if (x_tilde[t] == mask_token<NV>)
            sum += detail::column_loss(ws, t, x[t]);
    return sum;
}

// ---- EDTransformer: Algorithm 11 ----

template <class T, class cfg>
status try_loss_and_grad(const EDTransformer<T, cfg>& model, std::span<const token> z,
                         std::span<const token> x, EDTransformer<T, cfg>& grads,
                         training_workspace<EDTransformer<T, cfg>>& ws, T& loss) noexcept {
    const input_report r = detail::inspect_pair<EDTransformer<T, cfg>>(z, x);
    if (r.code != status::ok)
        return r.code;
    // 4: P_θ ← EDTransformer(z, x | θ)
    detail::model_impl<EDTransformer<T, cfg>>::logits(model, z, x, ws);
    loss = detail::loss_backward_from_logits(detail::next_token_targets(x, ws), ws);  // 5
    detail::model_impl<EDTransformer<T, cfg>>::backward(model, z, x, ws, grads);      // ∇loss(θ)
    return status::ok;
}

template <class T, class cfg>
T loss_and_grad(const EDTransformer<T, cfg>& model, std::span<const token> z,
                std::span<const token> x, EDTransformer<T, cfg>& grads,
                training_workspace<EDTransformer<T, cfg>>& ws) {
    detail::require_valid<EDTransformer<T, cfg>>(detail::inspect_pair<EDTransformer<T, cfg>>(z, x));
    T loss{};
    try_loss_and_grad(model, z, x, grads, ws, loss);
    return loss;
}

#if TYPEFORMER_HAS_EXCEPTIONS
template <class T, class cfg>
T loss_and_grad(const EDTransformer<T, cfg>& model, std::span<const token> z,
                std::span<const token> x, EDTransformer<T, cfg>& grads) {
    return loss_and_grad(model, z, x, grads,
                         detail::thread_workspace<training_workspace<EDTransformer<T, cfg>>>());
}
#endif

// The loss alone: Algorithm 11 line 5 at θ.
template <class T, class cfg, workspace_kind K>
T loss(const EDTransformer<T, cfg>& model, std::span<const token> z, std::span<const token> x,
       workspace<EDTransformer<T, cfg>, K>& ws) {
    logits(model, z, x, ws);
    return detail::next_token_loss(x, ws);
}

}  // namespace typeformer
