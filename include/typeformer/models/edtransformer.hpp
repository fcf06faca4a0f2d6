// Algorithm 8: P ← EDTransformer(z, x | θ), the original encoder-decoder transformer
// (sequence-to-sequence; post-norm, ReLU, no final layer norm).
//
//   z, x              context and primary sequences, 1 ≤ ℓ_z, ℓ_x ≤ l_max, ids < N_V
//   W_e (d_e, N_V)    W_p (d_e, l_max)    embeddings shared by z and x             → W_e, W_p
//   encoder.layers[l] encoder_layer: attn (Mask1), ln1, mlp (ReLU), ln2 (γ¹β¹, γ²β²)
//                                                                    → encoder.layers.{l}.…
//   decoder.layers[l] decoder_layer: self_attn (MaskΔ), ln1, cross_attn (Mask1, keys and values
//                     from Z), ln2, mlp (ReLU), ln3 (the paper's γ³…γ⁵)  → decoder.layers.{l}.…
//   W_u (N_V, d_e)    the unembedding, shared                                      → W_u
//   Z     (d_e, ℓ_z)  the encoded context;  X (d_e, ℓ_x) the primary stream
//   P     (N_V, ℓ_x)  P[:, t] = P̂(x[t+1] | x[1:t], z)
//
// L_enc and L_dec default to L. Variants (config): norm = rms_norm, positional = sinusoidal, tied,
// eps (gelu does not apply: Algorithm 8 uses ReLU).
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <type_traits>

#include <boost/hana/define_struct.hpp>

#include "../kernels.hpp"
#include "../nn/activation.hpp"
#include "../nn/embedding.hpp"
#include "../nn/unembedding.hpp"
#include "../tensor.hpp"
#include "../token.hpp"
#include "components.hpp"
#include "config.hpp"
#include "decoder_layer.hpp"
#include "encoder_layer.hpp"
#include "forward.hpp"
#include "stack.hpp"
#include "workspace.hpp"

namespace typeformer {

// Algorithm 8's encoder stack (lines 4–9) and decoder stack (lines 13–20) as parameter groups. Of
// something that is not a config: one error naming the stack and the argument.
template <class T, class cfg>
struct transformer_encoder {
    static_assert(sizeof(shape_error<in::transformer_encoder, template_argument<cfg>,
                                     needed<a_model_config>>) > 0);
};
template <class T, class cfg>
struct transformer_decoder {
    static_assert(sizeof(shape_error<in::transformer_decoder, template_argument<cfg>,
                                     needed<a_model_config>>) > 0);
};
template <class T, model_config cfg>
struct transformer_encoder<T, cfg> {
    using layer_type = encoder_layer<T, cfg, nn::relu>;
    using layers_type = std::array<layer_type, config_traits<cfg>::L_enc>;
    BOOST_HANA_DEFINE_STRUCT(transformer_encoder, (layers_type, layers));
};
template <class T, model_config cfg>
struct transformer_decoder<T, cfg> {
    using layer_type = decoder_layer<T, cfg>;
    using layers_type = std::array<layer_type, config_traits<cfg>::L_dec>;
    BOOST_HANA_DEFINE_STRUCT(transformer_decoder, (layers_type, layers));
};

template <class T, model_config cfg>
struct EDTransformer {
    using value_type = T;
    using traits = config_traits<cfg>;
    using d_e = typename traits::d_e;
    using N_V = typename traits::N_V;
    using l_max = typename traits::l_max;
    using l_x = typename traits::l_x;
    using l_z = typename traits::l_z;
    static constexpr const char* name = "EDTransformer";
    static constexpr std::size_t sequences = 2;
    static constexpr std::size_t L_enc = traits::L_enc;
    static constexpr std::size_t L_dec = traits::L_dec;
    static_assert(L_enc >= 1 && L_dec >= 1,
                  "EDTransformer: L_enc and L_dec (the numbers of layers) must be at least 1");
    static_assert(cfg::N_V >= 4,
                  "EDTransformer: N_V must leave room for the special tokens "
                  "mask, bos, eos (N_V − 3, N_V − 2, N_V − 1)");

    using embedding_type = nn::token_embedding<T, d_e, N_V>;  // W_e
    using positional_type = detail::positional_of<T, cfg>;    // W_p, or none (sinusoidal)
    using encoder_type = transformer_encoder<T, cfg>;
    using decoder_type = transformer_decoder<T, cfg>;
    using unembedding_type = detail::unembedding_of<T, cfg, d_e>;  // W_u, or none (tied)
    BOOST_HANA_DEFINE_STRUCT(EDTransformer, (embedding_type, embedding),
                             ([[no_unique_address]] positional_type, positional),
                             (encoder_type, encoder), (decoder_type, decoder),
                             ([[no_unique_address]] unembedding_type, unembedding));
};

template <class T, class cfg, workspace_kind K>
struct workspace<EDTransformer<T, cfg>, K> {
    using model_type = EDTransformer<T, cfg>;
    using d_e = typename model_type::d_e;
    using N_V = typename model_type::N_V;
    using l_x = typename model_type::l_x;
    using l_z = typename model_type::l_z;
    using encoder_layer_type = typename model_type::encoder_type::layer_type;
    using decoder_layer_type = typename model_type::decoder_type::layer_type;
    using enc_slots = detail::stack_slots<K, model_type::L_enc>;
    using dec_slots = detail::stack_slots<K, model_type::L_dec>;

    struct backward_scratch {
        mat<T, N_V, l_x> dlogits;  // ∂loss/∂(W_u X), set by the loss
        mat<T, d_e, l_x> dX;       // ∂loss/∂X, walked down the decoder
        mat<T, d_e, l_z> dZ;  // ∂loss/∂Z: every decoder layer's cross-attention, then the encoder
        typename encoder_layer_type::template scratch<l_z> encoder;
        typename decoder_layer_type::template scratch<l_x, l_z> decoder;
        std::array<token, l_x::capacity> targets;  // the loss's targets (no_target: none)
    };

    std::array<mat<T, d_e, l_z>, enc_slots::streams> Z;  // the context stream (see stack_slots)
    std::array<typename encoder_layer_type::template activations<l_z, K>, enc_slots::activations>
        encoder;
    std::array<mat<T, d_e, l_x>, dec_slots::streams> X;  // the primary stream
    std::array<typename decoder_layer_type::template activations<l_x, l_z, K>,
               dec_slots::activations>
        decoder;
    mat<T, N_V, l_x> out;  // 21: W_u X, or P after forward
    [[no_unique_address]] detail::training_only<K, backward_scratch> scratch;
};

namespace detail {

template <class T, class cfg>
struct model_impl<EDTransformer<T, cfg>> {
    using model_type = EDTransformer<T, cfg>;

    // Lines 1–9: Z, the encoded context, in ws.Z[last].
    template <workspace_kind K>
    static void encode(const model_type& m, std::span<const token> z,
                       workspace<model_type, K>& ws) noexcept {
        constexpr T eps = eps_of<T, cfg>;
        // Encode the context sequence:
        // 1: ℓ_z ← length(z);  2–3: for t ∈ [ℓ_z]: e_t ← W_e[:, z[t]] + W_p[:, t];  Z ← [e_1, …]
        embed_sequence(m, z, ws.Z);
        // 4: for l = 1, 2, …, L_enc   (5–8: models/encoder_layer.hpp)
        forward_stack<K>(m.encoder.layers, ws.Z, ws.encoder, eps);
    }

    // Lines 10–21 with the context Z (d_e, ℓ_z), which may live in another workspace.
    template <workspace_kind K>
    static void decode(const model_type& m,
                       mat_view<const T, typename model_type::d_e, typename model_type::l_z> Z,
                       std::span<const token> x, workspace<model_type, K>& ws) noexcept {
        using SX = stack_slots<K, model_type::L_dec>;
        constexpr T eps = eps_of<T, cfg>;
        // Decode the primary sequence, conditioning on the context:
        // 10: ℓ_x ← length(x);  11–12: for t ∈ [ℓ_x]: e_t ← W_e[:, x[t]] + W_p[:, t];  X ← [e_1, …]
        embed_sequence(m, x, ws.X);
        // 13: for l = 1, 2, …, L_dec   (14–19: models/decoder_layer.hpp)
        for (std::size_t i = 0; i < model_type::L_dec; ++i)
            typeformer::forward(m.decoder.layers[i], cview(ws.X[SX::input(i)]), Z,
                                ws.X[SX::output(i)].view(), ws.decoder[SX::slot(i)], eps);
        // 21: return P = softmax(W_u X); the logits here, the softmax in forward()
        ws.out.resize_cols(x.size());
        unembed(m, ws.X[SX::last], ws.out);
    }

    template <workspace_kind K>
    static void logits(const model_type& m, std::span<const token> z, std::span<const token> x,
                       workspace<model_type, K>& ws) noexcept {
        using SZ = stack_slots<K, model_type::L_enc>;
        encode(m, z, ws);                         // 1–9
        decode(m, cview(ws.Z[SZ::last]), x, ws);  // 10–21
    }

    // From ws.scratch.dlogits down to every parameter: lines 21 → 1.
    static void backward(const model_type& m, std::span<const token> z, std::span<const token> x,
                         workspace<model_type, workspace_kind::training>& ws,
                         model_type& grads) noexcept {
        using SZ = stack_slots<workspace_kind::training, model_type::L_enc>;
        using SX = stack_slots<workspace_kind::training, model_type::L_dec>;
        auto& s = ws.scratch;
        s.dX.resize_cols(x.size());
        s.dZ.resize_cols(z.size());
        // 21: logits = W_u X
        fill(s.dX, T(0));
        unembed_backward(m, ws.X[SX::last], s.dlogits, s.dX, grads);
        // 13: l = L_dec, …, 1   (19–14); every cross-attention adds its ∂loss/∂Z into dZ
        fill(s.dZ, T(0));
        const auto Z = cview(ws.Z[SZ::last]);
        for (std::size_t i = model_type::L_dec; i-- > 0;)
            typeformer::backward(m.decoder.layers[i], cview(ws.X[SX::input(i)]), Z,
                                 ws.decoder[SX::slot(i)], s.dX.view(), s.dZ.view(),
                                 grads.decoder.layers[i], s.decoder);
        // 11: dW_e[:, x[t]] += dX[:, t], dW_p[:, t] += dX[:, t]
        embed_sequence_backward(m, x, s.dX, grads);
        // 4: l = L_enc, …, 1   (8–5)
        backward_stack(m.encoder.layers, ws.Z, ws.encoder, s.dZ, grads.encoder.layers, s.encoder);
        // 2: dW_e[:, z[t]] += dZ[:, t], dW_p[:, t] += dZ[:, t]
        embed_sequence_backward(m, z, s.dZ, grads);
    }
};

}  // namespace detail

}  // namespace typeformer
