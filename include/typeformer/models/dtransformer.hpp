// Algorithm 10: P ← DTransformer(x | θ), GPT, a decoder-only transformer (pre-norm).
//
//   x                 ℓ tokens, 1 ≤ ℓ ≤ l_max, ids < N_V
//   W_e (d_e, N_V)    W_p (d_e, l_max)        token and positional embeddings     → W_e, W_p
//   layers[l]         gpt_layer: ln1, attn (MHAttention, MaskΔ), ln2, mlp (GELU)  → layers.{l}.…
//   ln_f              γ, β ∈ R^{d_e}, the final layer norm                         → ln_f.gamma|beta
//   W_u (N_V, d_e)    the unembedding                                              → W_u
//   X, X̃  (d_e, ℓ)    the residual stream and its layer-normed copy
//   P     (N_V, ℓ)    P[:, t] = P̂(x[t+1] | x[1:t]) (0-based: column t predicts token t + 1)
//
// Variants (config): norm = rms_norm (no β), positional = sinusoidal (no W_p), tied (no W_u:
// W_u = W_eᵀ), gelu = tanh, eps. Entry points: models/forward.hpp (forward, logits, backward),
// train/loss.hpp (loss_and_grad, Algorithm 13).
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <type_traits>

#include <boost/hana/define_struct.hpp>

#include "../kernels.hpp"
#include "../nn/embedding.hpp"
#include "../nn/layer_norm.hpp"
#include "../nn/unembedding.hpp"
#include "../tensor.hpp"
#include "../token.hpp"
#include "components.hpp"
#include "config.hpp"
#include "forward.hpp"
#include "gpt_layer.hpp"
#include "stack.hpp"
#include "workspace.hpp"

namespace typeformer {

template <class T, model_config cfg>
struct DTransformer {
    using value_type = T;
    using traits = config_traits<cfg>;
    using d_e = typename traits::d_e;
    using N_V = typename traits::N_V;
    using l_max = typename traits::l_max;
    using l_x = typename traits::l_x;
    static constexpr const char* name = "DTransformer";
    static constexpr std::size_t sequences = 1;
    static constexpr std::size_t L = traits::L;
    static_assert(L >= 1, "DTransformer: L (the number of layers) must be at least 1");
    static_assert(cfg::N_V >= 4,
                  "DTransformer: N_V must leave room for the special tokens "
                  "mask, bos, eos (N_V − 3, N_V − 2, N_V − 1)");

    using embedding_type = nn::token_embedding<T, d_e, N_V>;  // W_e
    using positional_type = detail::positional_of<T, cfg>;    // W_p, or none (sinusoidal)
    using layer_type = gpt_layer<T, cfg>;
    using layers_type = std::array<layer_type, L>;
    using norm_type = detail::norm_of<T, cfg, d_e>;                // ln_f
    using unembedding_type = detail::unembedding_of<T, cfg, d_e>;  // W_u, or none (tied)
    BOOST_HANA_DEFINE_STRUCT(DTransformer, (embedding_type, embedding),
                             ([[no_unique_address]] positional_type, positional),
                             (layers_type, layers), (norm_type, ln_f),
                             ([[no_unique_address]] unembedding_type, unembedding));
};

template <class T, class cfg, workspace_kind K>
struct workspace<DTransformer<T, cfg>, K> {
    using model_type = DTransformer<T, cfg>;
    using d_e = typename model_type::d_e;
    using N_V = typename model_type::N_V;
    using l_x = typename model_type::l_x;
    using layer_type = typename model_type::layer_type;
    using slots = detail::stack_slots<K, model_type::L>;

    struct backward_scratch {
        mat<T, N_V, l_x> dlogits;                          // ∂loss/∂(W_u X̃), set by the loss
        mat<T, d_e, l_x> dXt;                              // ∂loss/∂X̃ (line 10's output)
        mat<T, d_e, l_x> dX;                               // ∂loss/∂X, walked down the layers
        typename layer_type::template scratch<l_x> layer;  // shared by all layers
        std::array<token, l_x::capacity> targets;          // the loss's targets (no_target: none)
    };

    std::array<mat<T, d_e, l_x>, slots::streams> X;  // the residual stream (see stack_slots)
    std::array<typename layer_type::template activations<l_x, K>, slots::activations> layers;
    mat<T, d_e, l_x> Xt;  // 10: X̃ = ln_f(X)
    typename model_type::norm_type::template cache<l_x> ln_f_cache;
    mat<T, N_V, l_x> out;  // 11: W_u X̃, or P after forward
    [[no_unique_address]] detail::training_only<K, backward_scratch> scratch;
};

namespace detail {

template <class T, class cfg>
struct model_impl<DTransformer<T, cfg>> {
    using model_type = DTransformer<T, cfg>;

    template <workspace_kind K>
    static constexpr void logits(const model_type& m, std::span<const token> x,
                                 workspace<model_type, K>& ws) noexcept {
        using S = stack_slots<K, model_type::L>;
        constexpr T eps = eps_of<T, cfg>;
        // 1: ℓ ← length(x);  2–3: for t ∈ [ℓ]: e_t ← W_e[:, x[t]] + W_p[:, t];  X ← [e_1, … e_ℓ]
        const std::size_t l = x.size();
        embed_sequence(m, x, ws.X);
        // 4: for l = 1, 2, …, L   (5–8: models/gpt_layer.hpp)
        forward_stack<K>(m.layers, ws.X, ws.layers, eps);
        // 10: for t ∈ [ℓ]: X[:, t] ← layer_norm(X[:, t] | γ, β)
        ws.Xt.resize_cols(l);
        nn::forward(m.ln_f, ws.X[S::last], ws.Xt, ws.ln_f_cache, eps);
        // 11: return P = softmax(W_u X); the logits W_u X here, the softmax in forward()
        ws.out.resize_cols(l);
        unembed(m, ws.Xt, ws.out);
    }

    // From ws.scratch.dlogits down to every parameter: lines 11 → 1.
    static void backward(const model_type& m, std::span<const token> x,
                         workspace<model_type, workspace_kind::training>& ws,
                         model_type& grads) noexcept {
        using S = stack_slots<workspace_kind::training, model_type::L>;
        auto& s = ws.scratch;
        const std::size_t l = x.size();
        s.dXt.resize_cols(l);
        s.dX.resize_cols(l);
        // 11: logits = W_u X̃
        fill(s.dXt, T(0));
        unembed_backward(m, ws.Xt, s.dlogits, s.dXt, grads);
        // 10: X̃ = layer_norm(X | γ, β)
        fill(s.dX, T(0));
        nn::backward(m.ln_f, ws.X[S::last], s.dXt, s.dX, grads.ln_f, ws.ln_f_cache);
        // 4: l = L, …, 1   (8–5: models/gpt_layer.hpp)
        backward_stack(m.layers, ws.X, ws.layers, s.dX, grads.layers, s.layer);
        // 2: dW_e[:, x[t]] += dX[:, t], dW_p[:, t] += dX[:, t]
        embed_sequence_backward(m, x, s.dX, grads);
    }
};

}  // namespace detail

}  // namespace typeformer
