// One post-norm residual block with bidirectional self-attention: Algorithm 9 lines 5–8
// (BERT, GELU) and the encoder of Algorithm 8, lines 5–8 (ReLU).
//
//   X, X_out, dX     (d_e, ℓ)    the stream before / after the block (ℓ: l_x, or l_z in Alg. 8)
//   X_a              (d_e, ℓ)    X + MHAttention(X, X | W_l, Mask1)
//   X_1              (d_e, ℓ)    layer_norm(X_a | γ¹, β¹)
//   X_b              (d_e, ℓ)    X_1 + W_2 Act(W_1 X_1 + b_1 1ᵀ) + b_2 1ᵀ
//   X_out            (d_e, ℓ)    layer_norm(X_b | γ², β²)
//   attn             MHAttention<T, d_e, d_e, d_attn, d_mid, d_e, H>
//   ln1, ln2         layer_norm or rms_norm over d_e
//   mlp              W_1 (d_mlp, d_e), b_1, W_2 (d_e, d_mlp), b_2 with Act
//
// Weights-file names: [encoder.]layers.{l}.attn|ln1|mlp|ln2 (the paper's order of use).
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

template <class T, model_config cfg, nn::activation Act>
struct encoder_layer {
    using traits = config_traits<cfg>;
    using d_e = typename traits::d_e;
    using norm_type = detail::norm_of<T, cfg, d_e>;
    using attn_type = detail::attention_of<T, cfg>;
    using mlp_type = nn::mlp<T, d_e, typename traits::d_mlp, Act>;
    BOOST_HANA_DEFINE_STRUCT(encoder_layer, (attn_type, attn), (norm_type, ln1), (mlp_type, mlp),
                             (norm_type, ln2));

    // What backward needs of one layer (the input X stays in the model's stream); an inference
    // workspace's (K = inference) keeps no attention probabilities (models/workspace.hpp).
    template <dimension Len, workspace_kind K = workspace_kind::training>
    struct activations {
        detail::attention_cache_of<K, attn_type, Len, Len> attn_cache;
        mat<T, d_e, Len> X_a;  // 5: X + MHAttention(X, X)
        typename norm_type::template cache<Len> ln1_cache;
        mat<T, d_e, Len> X_1;  // 6: layer_norm(X_a)
        typename mlp_type::template cache<Len> mlp_cache;
        mat<T, d_e, Len> X_b;  // 7: X_1 + mlp(X_1)
        typename norm_type::template cache<Len> ln2_cache;
    };
    // Backward's working memory, shared by all layers.
    template <dimension Len>
    struct scratch {
        mat<T, d_e, Len> dXt;  // ∂ before a layer norm
        typename attn_type::template scratch<Len, Len> attn;
        typename mlp_type::template scratch<Len> mlp;
    };
};

inline namespace typed {

// Lines 5–8. X_out may be X itself (inference updates the stream in place). a: the layer's
// activations of a training or inference workspace.
template <class T, class cfg, class Act, class Len, class Acts>
    requires detail::activations_of<Acts, encoder_layer<T, cfg, Act>, Len>
void forward(const encoder_layer<T, cfg, Act>& p,
             mat_view<const T, typename encoder_layer<T, cfg, Act>::d_e, Len> X,
             mat_view<T, typename encoder_layer<T, cfg, Act>::d_e, Len> X_out, Acts& a,
             T eps) noexcept {
    const std::size_t l = X.cols();
    a.X_a.resize_cols(l);
    a.X_1.resize_cols(l);
    a.X_b.resize_cols(l);
    // 5: X ← X + MHAttention(X, X | W_l, Mask1)
    nn::forward(p.attn, X, X, mask_bidirectional{}, a.X_a, a.attn_cache, X);
    // 6: for t ∈ [ℓ]: X[:, t] ← layer_norm(X[:, t] | γ¹_l, β¹_l)
    nn::forward(p.ln1, a.X_a, a.X_1, a.ln1_cache, eps);
    // 7: X ← X + W²_mlp Act(W¹_mlp X + b¹_mlp 1ᵀ) + b²_mlp 1ᵀ   (Act: GELU in Alg. 9, ReLU in Alg. 8)
    nn::forward(p.mlp, a.X_1, a.X_b, a.mlp_cache, a.X_1);  // X + MLP(X): the residual add
    // 8: for t ∈ [ℓ]: X[:, t] ← layer_norm(X[:, t] | γ²_l, β²_l)
    nn::forward(p.ln2, a.X_b, X_out, a.ln2_cache, eps);
}

// Backward of lines 8–5. dX holds ∂loss/∂X_out on entry and ∂loss/∂X on return; parameter
// gradients are accumulated (+=) into g.
template <class T, class cfg, class Act, class Len>
void backward(const encoder_layer<T, cfg, Act>& p,
              mat_view<const T, typename encoder_layer<T, cfg, Act>::d_e, Len> X,
              const typename encoder_layer<T, cfg, Act>::template activations<Len>& a,
              mat_view<T, typename encoder_layer<T, cfg, Act>::d_e, Len> dX,
              encoder_layer<T, cfg, Act>& g,
              typename encoder_layer<T, cfg, Act>::template scratch<Len>& s) noexcept {
    s.dXt.resize_cols(X.cols());
    // 8: X_out = ln2(X_b)
    fill(s.dXt, T(0));
    nn::backward(p.ln2, a.X_b, dX, s.dXt, g.ln2, a.ln2_cache);  // s.dXt = ∂X_b
    // 7: X_b = X_1 + mlp(X_1)  ⇒  ∂X_1 = ∂X_b + mlpᵀ(∂X_b)
    copy(s.dXt, dX);
    nn::backward(p.mlp, a.X_1, s.dXt, dX, g.mlp, a.mlp_cache, s.mlp);
    // 6: X_1 = ln1(X_a)
    fill(s.dXt, T(0));
    nn::backward(p.ln1, a.X_a, dX, s.dXt, g.ln1, a.ln1_cache);  // s.dXt = ∂X_a
    // 5: X_a = X + MHAttention(X, X)  ⇒  ∂X = ∂X_a + attnᵀ(∂X_a) (X is both X and Z)
    copy(s.dXt, dX);
    nn::backward(p.attn, X, X, mask_bidirectional{}, s.dXt, dX, dX, g.attn, a.attn_cache, s.attn);
}

}  // namespace typed

// ---- a call of no form above: the first argument that disagrees, by its role ----

template <class T, class cfg, class Act, class... A>
    requires(!requires(const encoder_layer<T, cfg, Act>& p, A&&... a) {
        typed::forward(p, static_cast<A&&>(a)...);
    })
auto forward(const encoder_layer<T, cfg, Act>& p, A&&... args) noexcept
    -> decltype(detail::shape_error_of<in::encoder_layer>(
        detail::layer_error<role::W_q, detail::stream_layer_forward<T, encoder_layer<T, cfg, Act>>,
                            A...>()));
template <class T, class cfg, class Act, class... A>
    requires(!requires(const encoder_layer<T, cfg, Act>& p, A&&... a) {
        typed::backward(p, static_cast<A&&>(a)...);
    })
auto backward(const encoder_layer<T, cfg, Act>& p, A&&... args) noexcept
    -> decltype(detail::shape_error_of<in::encoder_layer_backward>(
        detail::layer_error<role::W_q, detail::stream_layer_backward<T, encoder_layer<T, cfg, Act>>,
                            A...>()));

}  // namespace typeformer
