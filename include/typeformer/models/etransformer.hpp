// Algorithm 9: P ← ETransformer(x | θ), BERT, an encoder-only transformer (post-norm, GELU).
//
//   x                 ℓ tokens, 1 ≤ ℓ ≤ l_max, ids < N_V (Algorithm 12 feeds x̃, with mask_token)
//   W_e (d_e, N_V)    W_p (d_e, l_max)        token and positional embeddings     → W_e, W_p
//   layers[l]         encoder_layer: attn (MHAttention, Mask1), ln1, mlp (GELU), ln2
//   W_f (d_f, d_e)    b_f (d_f)               the final projection (line 10)        → W_f, b_f
//   ln_f              γ, β ∈ R^{d_f}          the final layer norm (line 11)        → ln_f.gamma|beta
//   W_u (N_V, d_f)    the unembedding (line 12)                                     → W_u
//   X     (d_e, ℓ)    the stream through the layers;  F, F̃ (d_f, ℓ) after lines 10, 11
//   P     (N_V, ℓ)    each column a distribution over the vocabulary
//
// The paper lists W_u ∈ R^{N_V×d_e}, but line 12 applies it to the output of line 10, which has
// d_f rows: a shape slip whenever d_f ≠ d_e. Here W_u is (N_V, d_f); the paper's version does
// not compile (tests/compile_fail/algorithm9_unembedding.cpp, docs/algorithms.md). The tied
// variant W_u = W_eᵀ therefore needs d_f = d_e.
//
// Variants (config): d_f (default d_e), norm = rms_norm, positional = sinusoidal, tied,
// gelu = tanh (the layers' MLP and line 10), eps.
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
#include "encoder_layer.hpp"
#include "final_projection.hpp"
#include "forward.hpp"
#include "stack.hpp"
#include "workspace.hpp"

namespace typeformer {

template <class T, model_config cfg>
struct ETransformer {
    using value_type = T;
    using traits = config_traits<cfg>;
    using d_e = typename traits::d_e;
    using d_f = typename traits::d_f;
    using N_V = typename traits::N_V;
    using l_max = typename traits::l_max;
    using l_x = typename traits::l_x;
    static constexpr const char* name = "ETransformer";
    static constexpr std::size_t sequences = 1;
    static constexpr std::size_t L = traits::L;
    static_assert(L >= 1, "ETransformer: L (the number of layers) must be at least 1");
    static_assert(cfg::N_V >= 4,
                  "ETransformer: N_V must leave room for the special tokens "
                  "mask, bos, eos (N_V − 3, N_V − 2, N_V − 1)");
    static_assert(!traits::tied || d_f::size == d_e::size,
                  "ETransformer: tied W_u = W_eᵀ needs d_f == d_e (line 12 applies W_u to the "
                  "d_f rows of line 10's output; W_eᵀ has d_e columns)");

    using embedding_type = nn::token_embedding<T, d_e, N_V>;  // W_e
    using positional_type = detail::positional_of<T, cfg>;    // W_p, or none (sinusoidal)
    using layer_type = encoder_layer<T, cfg, detail::gelu_of<cfg>>;
    using layers_type = std::array<layer_type, L>;
    using projection_type = final_projection<T, d_f, d_e, detail::gelu_of<cfg>>;  // W_f, b_f
    using norm_type = detail::norm_of<T, cfg, d_f>;                               // ln_f over d_f
    using unembedding_type = detail::unembedding_of<T, cfg, d_f>;  // W_u (N_V, d_f), or none (tied)
    BOOST_HANA_DEFINE_STRUCT(ETransformer, (embedding_type, embedding),
                             ([[no_unique_address]] positional_type, positional),
                             (layers_type, layers), (projection_type, projection),
                             (norm_type, ln_f),
                             ([[no_unique_address]] unembedding_type, unembedding));
};

template <class T, class cfg, workspace_kind K>
struct workspace<ETransformer<T, cfg>, K> {
    using model_type = ETransformer<T, cfg>;
    using d_e = typename model_type::d_e;
    using d_f = typename model_type::d_f;
    using N_V = typename model_type::N_V;
    using l_x = typename model_type::l_x;
    using layer_type = typename model_type::layer_type;
    using slots = detail::stack_slots<K, model_type::L>;

    struct backward_scratch {
        mat<T, N_V, l_x> dlogits;                          // ∂loss/∂(W_u F̃), set by the loss
        mat<T, d_f, l_x> dFt;                              // ∂loss/∂F̃
        mat<T, d_f, l_x> dF;                               // ∂loss/∂F
        mat<T, d_e, l_x> dX;                               // ∂loss/∂X, walked down the layers
        typename layer_type::template scratch<l_x> layer;  // shared by all layers
        typename model_type::projection_type::template scratch<l_x> projection;
        std::array<token, l_x::capacity> targets;  // the loss's targets (no_target: none)
    };

    std::array<mat<T, d_e, l_x>, slots::streams> X;  // the stream (see stack_slots)
    std::array<typename layer_type::template activations<l_x, K>, slots::activations> layers;
    typename model_type::projection_type::template cache<l_x> projection_cache;
    mat<T, d_f, l_x> F;   // 10: GELU(W_f X + b_f 1ᵀ)
    mat<T, d_f, l_x> Ft;  // 11: layer_norm(F | γ, β)
    typename model_type::norm_type::template cache<l_x> ln_f_cache;
    mat<T, N_V, l_x> out;  // 12: W_u F̃, or P after forward
    [[no_unique_address]] detail::training_only<K, backward_scratch> scratch;
};

namespace detail {

template <class T, class cfg>
struct model_impl<ETransformer<T, cfg>> {
    using model_type = ETransformer<T, cfg>;

    template <workspace_kind K>
    static void logits(const model_type& m, std::span<const token> x,
                       workspace<model_type, K>& ws) noexcept {
        using S = stack_slots<K, model_type::L>;
        constexpr T eps = eps_of<T, cfg>;
        // 1: ℓ ← length(x);  2–3: for t ∈ [ℓ]: e_t ← W_e[:, x[t]] + W_p[:, t];  X ← [e_1, … e_ℓ]
        const std::size_t l = x.size();
        embed_sequence(m, x, ws.X);
        // 4: for l = 1, 2, …, L   (5–8: models/encoder_layer.hpp)
        forward_stack<K>(m.layers, ws.X, ws.layers, eps);
        // 10: X ← GELU(W_f X + b_f 1ᵀ)   (d_f, ℓ)
        ws.F.resize_cols(l);
        typeformer::forward(m.projection, cview(ws.X[S::last]), ws.F.view(), ws.projection_cache);
        // 11: for t ∈ [ℓ]: X[:, t] ← layer_norm(X[:, t] | γ, β)   (γ, β ∈ R^{d_f})
        ws.Ft.resize_cols(l);
        nn::forward(m.ln_f, ws.F, ws.Ft, ws.ln_f_cache, eps);
        // 12: return P = softmax(W_u X), W_u ∈ R^{N_V×d_f}; the logits here, the softmax in forward()
        ws.out.resize_cols(l);
        unembed(m, ws.Ft, ws.out);  // tied: F̃'s d_f rows read as d_e (components.hpp)
    }

    // From ws.scratch.dlogits down to every parameter: lines 12 → 1.
    static void backward(const model_type& m, std::span<const token> x,
                         workspace<model_type, workspace_kind::training>& ws,
                         model_type& grads) noexcept {
        using S = stack_slots<workspace_kind::training, model_type::L>;
        auto& s = ws.scratch;
        const std::size_t l = x.size();
        s.dFt.resize_cols(l);
        s.dF.resize_cols(l);
        s.dX.resize_cols(l);
        // 12: logits = W_u F̃
        fill(s.dFt, T(0));
        unembed_backward(m, ws.Ft, s.dlogits, s.dFt, grads);
        // 11: F̃ = layer_norm(F | γ, β)
        fill(s.dF, T(0));
        nn::backward(m.ln_f, ws.F, s.dFt, s.dF, grads.ln_f, ws.ln_f_cache);
        // 10: F = GELU(W_f X + b_f 1ᵀ)
        fill(s.dX, T(0));
        typeformer::backward(m.projection, cview(ws.X[S::last]), cview(s.dF), s.dX.view(),
                             grads.projection, ws.projection_cache, s.projection);
        // 4: l = L, …, 1   (8–5: models/encoder_layer.hpp)
        backward_stack(m.layers, ws.X, ws.layers, s.dX, grads.layers, s.layer);
        // 2: dW_e[:, x[t]] += dX[:, t], dW_p[:, t] += dX[:, t]
        embed_sequence_backward(m, x, s.dX, grads);
    }
};

}  // namespace detail

}  // namespace typeformer
