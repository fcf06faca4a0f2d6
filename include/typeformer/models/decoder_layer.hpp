// One decoder block of Algorithm 8 (encoder-decoder, post-norm, ReLU): lines 14–19.
//
//   X, X_out, dX     (d_e, l_x)   the primary stream before / after the block
//   Z, dZ            (d_e, l_z)   the encoder's output (the context), and its gradient
//   X_a              (d_e, l_x)   X + MHAttention(X, X | W_l^dec, MaskΔ)          14
//   X_1              (d_e, l_x)   layer_norm(X_a | γ³, β³)                        15
//   X_b              (d_e, l_x)   X_1 + MHAttention(X_1, Z | W_l^e/d, Mask1)      16
//   X_2              (d_e, l_x)   layer_norm(X_b | γ⁴, β⁴)                        17
//   X_c              (d_e, l_x)   X_2 + W_mlp4 ReLU(W_mlp3 X_2 + b 1ᵀ) + b 1ᵀ     18
//   X_out            (d_e, l_x)   layer_norm(X_c | γ⁵, β⁵)                        19
//   self_attn        MHAttention<T, d_e, d_e, d_attn, d_mid, d_e, H> over (l_x, l_x)
//   cross_attn       the same type over (l_x, l_z): queries from X, keys and values from Z
//
// Weights-file names: decoder.layers.{l}.self_attn|ln1|cross_attn|ln2|mlp|ln3 (the paper's
// γ³…γ⁵ are ln1…ln3 of the decoder layer).
#pragma once

#include <boost/hana/define_struct.hpp>

#include "../kernels.hpp"
#include "../nn/activation.hpp"
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
struct decoder_layer {
    using traits = config_traits<cfg>;
    using d_e = typename traits::d_e;
    using norm_type = detail::norm_of<T, cfg, d_e>;
    using attn_type = detail::attention_of<T, cfg>;
    using mlp_type = nn::mlp<T, d_e, typename traits::d_mlp, nn::relu>;
    BOOST_HANA_DEFINE_STRUCT(decoder_layer, (attn_type, self_attn), (norm_type, ln1),
                             (attn_type, cross_attn), (norm_type, ln2), (mlp_type, mlp),
                             (norm_type, ln3));

    // What backward needs of one layer; an inference workspace's (K = inference) keeps no
    // attention probabilities (models/workspace.hpp).
    template <dimension Lx, dimension Lz, workspace_kind K = workspace_kind::training>
    struct activations {
        detail::attention_cache_of<K, attn_type, Lx, Lx> self_cache;
        mat<T, d_e, Lx> X_a;  // 14
        typename norm_type::template cache<Lx> ln1_cache;
        mat<T, d_e, Lx> X_1;  // 15
        detail::attention_cache_of<K, attn_type, Lx, Lz> cross_cache;
        mat<T, d_e, Lx> X_b;  // 16
        typename norm_type::template cache<Lx> ln2_cache;
        mat<T, d_e, Lx> X_2;  // 17
        typename mlp_type::template cache<Lx> mlp_cache;
        mat<T, d_e, Lx> X_c;  // 18
        typename norm_type::template cache<Lx> ln3_cache;
    };
    template <dimension Lx, dimension Lz>
    struct scratch {
        mat<T, d_e, Lx> dXt;
        typename attn_type::template scratch<Lx, Lx> self_attn;
        typename attn_type::template scratch<Lx, Lz> cross_attn;
        typename mlp_type::template scratch<Lx> mlp;
    };
};

inline namespace typed {

// Lines 14–19. X_out may be X itself (inference updates the stream in place). a: the layer's
// activations of a training or inference workspace.
template <class T, class cfg, class Lx, class Lz, class Acts>
    requires detail::activations_of<Acts, decoder_layer<T, cfg>, Lx, Lz>
void forward(const decoder_layer<T, cfg>& p,
             mat_view<const T, typename decoder_layer<T, cfg>::d_e, Lx> X,
             mat_view<const T, typename decoder_layer<T, cfg>::d_e, Lz> Z,
             mat_view<T, typename decoder_layer<T, cfg>::d_e, Lx> X_out, Acts& a, T eps) noexcept {
    const std::size_t l = X.cols();
    a.X_a.resize_cols(l);
    a.X_1.resize_cols(l);
    a.X_b.resize_cols(l);
    a.X_2.resize_cols(l);
    a.X_c.resize_cols(l);
    // 14: X ← X + MHAttention(X, X | W_l^dec, MaskΔ)
    nn::forward(p.self_attn, X, X, mask_unidirectional{}, a.X_a, a.self_cache, X);
    // 15: for t ∈ [ℓ_x]: X[:, t] ← layer_norm(X[:, t] | γ³_l, β³_l)
    nn::forward(p.ln1, a.X_a, a.X_1, a.ln1_cache, eps);
    // 16: X ← X + MHAttention(X, Z | W_l^{e/d}, Mask1)
    nn::forward(p.cross_attn, a.X_1, Z, mask_bidirectional{}, a.X_b, a.cross_cache, a.X_1);
    // 17: for t ∈ [ℓ_x]: X[:, t] ← layer_norm(X[:, t] | γ⁴_l, β⁴_l)
    nn::forward(p.ln2, a.X_b, a.X_2, a.ln2_cache, eps);
    // 18: X ← X + W⁴_mlp ReLU(W³_mlp X + b³_mlp 1ᵀ) + b⁴_mlp 1ᵀ
    nn::forward(p.mlp, a.X_2, a.X_c, a.mlp_cache, a.X_2);  // X + MLP(X): the residual add
    // 19: for t ∈ [ℓ_x]: X[:, t] ← layer_norm(X[:, t] | γ⁵_l, β⁵_l)
    nn::forward(p.ln3, a.X_c, X_out, a.ln3_cache, eps);
}

// Backward of lines 19–14. dX holds ∂loss/∂X_out on entry and ∂loss/∂X on return; ∂loss/∂Z of
// the cross-attention is accumulated (+=) into dZ, parameter gradients into g.
template <class T, class cfg, class Lx, class Lz>
void backward(const decoder_layer<T, cfg>& p,
              mat_view<const T, typename decoder_layer<T, cfg>::d_e, Lx> X,
              mat_view<const T, typename decoder_layer<T, cfg>::d_e, Lz> Z,
              const typename decoder_layer<T, cfg>::template activations<Lx, Lz>& a,
              mat_view<T, typename decoder_layer<T, cfg>::d_e, Lx> dX,
              mat_view<T, typename decoder_layer<T, cfg>::d_e, Lz> dZ, decoder_layer<T, cfg>& g,
              typename decoder_layer<T, cfg>::template scratch<Lx, Lz>& s) noexcept {
    s.dXt.resize_cols(X.cols());
    // 19: X_out = ln3(X_c)
    fill(s.dXt, T(0));
    nn::backward(p.ln3, a.X_c, dX, s.dXt, g.ln3, a.ln3_cache);  // s.dXt = ∂X_c
    // 18: X_c = X_2 + mlp(X_2)
    copy(s.dXt, dX);
    nn::backward(p.mlp, a.X_2, s.dXt, dX, g.mlp, a.mlp_cache, s.mlp);  // dX = ∂X_2
    // 17: X_2 = ln2(X_b)
    fill(s.dXt, T(0));
    nn::backward(p.ln2, a.X_b, dX, s.dXt, g.ln2, a.ln2_cache);  // s.dXt = ∂X_b
    // 16: X_b = X_1 + MHAttention(X_1, Z)
    copy(s.dXt, dX);
    nn::backward(p.cross_attn, a.X_1, Z, mask_bidirectional{}, s.dXt, dX, dZ, g.cross_attn,
                 a.cross_cache, s.cross_attn);  // dX = ∂X_1, dZ += …
    // 15: X_1 = ln1(X_a)
    fill(s.dXt, T(0));
    nn::backward(p.ln1, a.X_a, dX, s.dXt, g.ln1, a.ln1_cache);  // s.dXt = ∂X_a
    // 14: X_a = X + MHAttention(X, X)  ⇒  dX = ∂X_a + attnᵀ(∂X_a) (X is both X and Z)
    copy(s.dXt, dX);
    nn::backward(p.self_attn, X, X, mask_unidirectional{}, s.dXt, dX, dX, g.self_attn, a.self_cache,
                 s.self_attn);
}

}  // namespace typed

// ---- a call of no form above: the first argument that disagrees, by its role ----

namespace detail {
// forward(p, X, Z, X_out, a, eps) and backward(p, X, Z, a, dX, dZ, g, s), over X's columns Lx
// and the context Z's Lz.
template <class T, class cfg>
struct decoder_layer_forward {
    using layer = decoder_layer<T, cfg>;
    using D = typename layer::d_e;
    static constexpr std::size_t sequences = 2;
    template <class Lx, class Lz>
    using params = std::tuple<
        view_param<role::X, mat_view<const T, D, Lx>, W_q_cols<D>>,
        view_param<role::Z, mat_view<const T, D, Lz>, W_k_cols<D>>,
        view_param<role::X_out, mat_view<T, D, Lx>, X_rows<D>, X_cols<Lx>>,
        state_param<typename layer::template activations<Lx, Lz>,
                    typename layer::template activations<Lx, Lz, workspace_kind::inference>>,
        scalar_param>;
};
template <class T, class cfg>
struct decoder_layer_backward {
    using layer = decoder_layer<T, cfg>;
    using D = typename layer::d_e;
    static constexpr std::size_t sequences = 2;
    template <class Lx, class Lz>
    using params =
        std::tuple<view_param<role::X, mat_view<const T, D, Lx>, W_q_cols<D>>,
                   view_param<role::Z, mat_view<const T, D, Lz>, W_k_cols<D>>,
                   state_param<typename layer::template activations<Lx, Lz>>,
                   view_param<role::dX, mat_view<T, D, Lx>, X_rows<D>, X_cols<Lx>>,
                   view_param<role::dZ, mat_view<T, D, Lz>, Z_rows<D>, Z_cols<Lz>>,
                   grads_param<layer>, state_param<typename layer::template scratch<Lx, Lz>>>;
};
}  // namespace detail

template <class T, class cfg, class... A>
    requires(!requires(const decoder_layer<T, cfg>& p, A&&... a) {
        typed::forward(p, static_cast<A&&>(a)...);
    })
auto forward(const decoder_layer<T, cfg>& p, A&&... args) noexcept
    -> decltype(detail::shape_error_of<in::decoder_layer>(
        detail::layer_error<role::W_q, detail::decoder_layer_forward<T, cfg>, A...>()));
template <class T, class cfg, class... A>
    requires(!requires(const decoder_layer<T, cfg>& p, A&&... a) {
        typed::backward(p, static_cast<A&&>(a)...);
    })
auto backward(const decoder_layer<T, cfg>& p, A&&... args) noexcept
    -> decltype(detail::shape_error_of<in::decoder_layer_backward>(
        detail::layer_error<role::W_q, detail::decoder_layer_backward<T, cfg>, A...>()));

}  // namespace typeformer
