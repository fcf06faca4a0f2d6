// One residual block of Algorithm 10 (GPT-2, decoder-only, pre-norm): lines 5–8.
//
//   X, X_out, dX        (d_e, l_x)   the residual stream before / after the block
//   X̃ (Xt1, Xt2)        (d_e, l_x)   the layer-normed stream the attention / MLP read
//   X_mid               (d_e, l_x)   X + MHAttention(X̃, X̃ | W_l, MaskΔ)
//   ln1, ln2            layer_norm (γ, β ∈ R^{d_e}) or rms_norm (γ) per the config
//   attn                MHAttention<T, d_e, d_e, d_attn, d_mid, d_e, H>
//   mlp                 W_1 (d_mlp, d_e), b_1, W_2 (d_e, d_mlp), b_2 with GELU (erf or tanh)
//
// Weights-file names: layers.{l}.ln1.gamma|beta, layers.{l}.attn.W_q|…|b_o, layers.{l}.ln2.…,
// layers.{l}.mlp.W_1|b_1|W_2|b_2.
#pragma once

#include <boost/hana/define_struct.hpp>

#include "../kernels.hpp"
#include "../nn/layer_norm.hpp"
#include "../nn/mh_attention.hpp"
#include "../nn/mlp.hpp"
#include "../tensor.hpp"
#include "components.hpp"
#include "config.hpp"
#include "diagnose.hpp"
#include "workspace.hpp"

namespace typeformer {

template <class T, model_config cfg>
struct gpt_layer {
    using traits = config_traits<cfg>;
    using d_e = typename traits::d_e;
    using norm_type = detail::norm_of<T, cfg, d_e>;
    using attn_type = detail::attention_of<T, cfg>;
    using mlp_type = nn::mlp<T, d_e, typename traits::d_mlp, detail::gelu_of<cfg>>;
    BOOST_HANA_DEFINE_STRUCT(gpt_layer, (norm_type, ln1), (attn_type, attn), (norm_type, ln2),
                             (mlp_type, mlp));

    // What backward needs of one layer (the input X stays in the model's stream); an inference
    // workspace's (K = inference) keeps no attention probabilities (models/workspace.hpp).
    template <dimension Lx, workspace_kind K = workspace_kind::training>
    struct activations {
        mat<T, d_e, Lx> Xt1;  // 5: X̃ = ln1(X)
        typename norm_type::template cache<Lx> ln1_cache;
        detail::attention_cache_of<K, attn_type, Lx, Lx> attn_cache;
        mat<T, d_e, Lx> X_mid;  // 6: X + MHAttention(X̃, X̃)
        mat<T, d_e, Lx> Xt2;    // 7: X̃ = ln2(X_mid)
        typename norm_type::template cache<Lx> ln2_cache;
        typename mlp_type::template cache<Lx> mlp_cache;
    };
    // Backward's working memory, shared by all layers.
    template <dimension Lx>
    struct scratch {
        mat<T, d_e, Lx> dXt;  // ∂/∂X̃
        typename attn_type::template scratch<Lx, Lx> attn;
        typename mlp_type::template scratch<Lx> mlp;
    };
};

inline namespace typed {

// Lines 5–8. X_out may be X itself (inference updates the stream in place): X is last read
// before X_out is first written. a: the layer's activations of a training or inference workspace.
template <class T, class cfg, class Lx, class Acts>
    requires detail::activations_of<Acts, gpt_layer<T, cfg>, Lx>
constexpr void forward(const gpt_layer<T, cfg>& p,
                       mat_view<const T, typename gpt_layer<T, cfg>::d_e, Lx> X,
                       mat_view<T, typename gpt_layer<T, cfg>::d_e, Lx> X_out, Acts& a,
                       T eps) noexcept {
    const std::size_t l = X.cols();
    a.Xt1.resize_cols(l);
    a.X_mid.resize_cols(l);
    a.Xt2.resize_cols(l);
    // 5: for t ∈ [ℓ]: X̃[:, t] ← layer_norm(X[:, t] | γ¹_l, β¹_l)
    nn::forward(p.ln1, X, a.Xt1, a.ln1_cache, eps);
    // 6: X ← X + MHAttention(X̃, X̃ | W_l, MaskΔ)
    nn::forward(p.attn, a.Xt1, a.Xt1, mask_unidirectional{}, a.X_mid, a.attn_cache, X);
    // 7: for t ∈ [ℓ]: X̃[:, t] ← layer_norm(X[:, t] | γ²_l, β²_l)
    nn::forward(p.ln2, a.X_mid, a.Xt2, a.ln2_cache, eps);
    // 8: X ← X + W²_mlp GELU(W¹_mlp X̃ + b¹_mlp 1ᵀ) + b²_mlp 1ᵀ
    nn::forward(p.mlp, a.Xt2, X_out, a.mlp_cache, a.X_mid);  // X_mid + MLP(X̃): the residual add
}

// Backward of lines 8–5. dX holds ∂loss/∂X_out on entry and ∂loss/∂X on return; the parameter
// gradients are accumulated (+=) into g. X is the forward's input, a its activations.
template <class T, class cfg, class Lx>
void backward(const gpt_layer<T, cfg>& p, mat_view<const T, typename gpt_layer<T, cfg>::d_e, Lx> X,
              const typename gpt_layer<T, cfg>::template activations<Lx>& a,
              mat_view<T, typename gpt_layer<T, cfg>::d_e, Lx> dX, gpt_layer<T, cfg>& g,
              typename gpt_layer<T, cfg>::template scratch<Lx>& s) noexcept {
    s.dXt.resize_cols(X.cols());
    // 8: X_out = X_mid + mlp(X̃₂)  ⇒  ∂X_mid = ∂X_out + ln2ᵀ(mlpᵀ(∂X_out))
    fill(s.dXt, T(0));
    nn::backward(p.mlp, a.Xt2, dX, s.dXt, g.mlp, a.mlp_cache, s.mlp);
    nn::backward(p.ln2, a.X_mid, s.dXt, dX, g.ln2, a.ln2_cache);  // 7
    // 6: X_mid = X + MHAttention(X̃₁, X̃₁)  ⇒  ∂X = ∂X_mid + ln1ᵀ(attnᵀ(∂X_mid)); X̃₁ is both X and Z
    fill(s.dXt, T(0));
    nn::backward(p.attn, a.Xt1, a.Xt1, mask_unidirectional{}, dX, s.dXt, s.dXt, g.attn,
                 a.attn_cache, s.attn);
    nn::backward(p.ln1, X, s.dXt, dX, g.ln1, a.ln1_cache);  // 5
}

}  // namespace typed

// ---- a call of no form above: the first argument that disagrees, by its role ----

template <class T, class cfg, class... A>
    requires(!requires(const gpt_layer<T, cfg>& p, A&&... a) {
        typed::forward(p, static_cast<A&&>(a)...);
    })
auto forward(const gpt_layer<T, cfg>& p, A&&... args) noexcept
    -> decltype(detail::shape_error_of<in::gpt_layer>(
        detail::layer_error<role::W_q, detail::stream_layer_forward<T, gpt_layer<T, cfg>>,
                            A...>()));
template <class T, class cfg, class... A>
    requires(!requires(const gpt_layer<T, cfg>& p, A&&... a) {
        typed::backward(p, static_cast<A&&>(a)...);
    })
auto backward(const gpt_layer<T, cfg>& p, A&&... args) noexcept
    -> decltype(detail::shape_error_of<in::gpt_layer_backward>(
        detail::layer_error<role::W_q, detail::stream_layer_backward<T, gpt_layer<T, cfg>>,
                            A...>()));

}  // namespace typeformer
