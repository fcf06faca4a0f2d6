// The KV cache: incremental decoding, one new token at a time, built on Algorithm 3.
//
// Column t of a causal (MaskΔ) self-attention depends only on the columns ≤ t: its query q_t and
// the keys and values k_u, v_u of positions u ≤ t. So a decoder keeps, per layer, the keys and
// values of every position seen so far, and a new token costs one column through each layer:
// Algorithm 3 (q ← W_q e + b_q, its k and v appended, α = softmax(Kᵀq/√d_attn), ṽ = V α) per
// head — work linear in the context, where re-running the whole forward pass per token is
// quadratic. Its P column equals column t of the full forward pass (tests/infer check every
// position up to l_max).
//
//   kv_cache<DTransformer>     per layer  K (H·d_attn, l_x), V (H·d_mid, l_x); the same for
//                              kv_cache<q8<DTransformer>> and kv_cache<q8a8<DTransformer>>
//                              (int8 weights, models/quantized.hpp)
//   kv_cache<M, kv_int8<>>     M a DTransformer or its q8/q8a8 form: K and V as int8 codes with a
//                              float scale per token and head (kv_int8<per_token>: per token),
//                              V stored transposed; the attention quantizes q and its weights on
//                              the fly and sums int8 × int8 in int32 (kernels::scalar::attend_q8)
//   kv_cache<EDTransformer>    per decoder layer the self-attention's K, V (as above) and the
//                              cross-attention's K (H·d_attn, l_z), V (H·d_mid, l_z) of Z,
//                              computed once per context z by encode()
//   x (l_max)                  the tokens seen so far (length() of them)
//   X (d_e, 1)                 the new token's stream through the layers
//   logits (N_V, 1)            W_u X̃ of the newest position: P[:, t] = softmax(logits)
//
//   reset(cache)                            forget the sequence (not the encoded context)
//   try_append(model, cache, token)         one new token at position length(): its logits
//   try_prefill(model, cache, prompt)       reset, then append every prompt token
//   try_encode(model, cache, z)             EDTransformer: Z ← encoder(z), cross K, V; reset
//   logits(cache), probabilities(cache, P)  the newest position's logits, or its softmax
//
// A cache is as big as the model's K, V at l_max (footprint<Model>.kv_cache): on a host allocate
// it once (`std::make_unique<tf::kv_cache<Model>>()`), on a microcontroller make it static. One
// cache per model and thread; nothing is allocated after that.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <type_traits>

#include "../kernels.hpp"
#include "../kernels/q8.hpp"
#include "../models/diagnose.hpp"
#include "../models/dtransformer.hpp"
#include "../models/edtransformer.hpp"
#include "../models/forward.hpp"
#include "../models/quantized.hpp"
#include "../models/stack.hpp"
#include "../models/status.hpp"
#include "../nn/attention.hpp"
#include "../nn/embedding.hpp"
#include "../tensor.hpp"
#include "../token.hpp"
#include "sampling.hpp"

namespace typeformer {

// The one new column of a decoding step.
TYPEFORMER_LENGTH(l_step);

// What a cache keeps the keys and values in.
struct kv_float {};  // the model's scalar type (the default)
// int8 codes, one float scale per cached token and head (per_head) or per token (per_token):
// about a quarter of the float cache (DTransformer caches; the attention runs int8 × int8 into
// int32, on the DSP extension on a Cortex-M4/M7: kernels/cortexm/q8.hpp).
template <class Scale = per_head>
struct kv_int8 {
    static_assert(std::is_same_v<Scale, per_head> || std::is_same_v<Scale, per_token>,
                  "kv_int8<per_head> or kv_int8<per_token>");
    using scale_type = Scale;
};

template <class Model, class Storage = kv_float>
struct kv_cache;  // specialised below for DTransformer and EDTransformer

namespace detail {
template <class X>
inline constexpr bool is_kv_cache = false;
template <class Model, class Storage>
inline constexpr bool is_kv_cache<kv_cache<Model, Storage>> = true;
template <class Model, class Storage>
struct belongs_to<kv_cache<Model, Storage>> {
    using model = Model;
    template <class M>
    using role = kv_cache_of<M>;
};
}  // namespace detail

namespace detail {

// One self- or cross-attention's keys and values of a layer: one column per context position.
template <class Attn, class Lctx>
struct kv_pair {
    using T = typename Attn::value_type;
    mat<T, typename Attn::qk_dim, Lctx> K;  // [k_1, …, k_t] of every head     (H·d_attn, l)
    mat<T, typename Attn::v_dim, Lctx> V;   // [v_1, …, v_t] of every head     (H·d_mid, l)
};

// Working memory of one MHAttention step (Algorithm 3 per head, then W_o).
template <class Attn, class Lctx>
struct attention_step {
    using T = typename Attn::value_type;
    using S = l_step<1>;
    mat<T, typename Attn::qk_dim, S> q;  // 1: q ← W_q e + b_q                       (H·d_attn, 1)
    mat<T, typename Attn::v_dim, S> Y;  // 5: [ṽ^1; …; ṽ^H]                         (H·d_mid, 1)
    nn::detail::attention_tile_for<T, S, Lctx> alpha;  // 4–5 of one head, in tiles of the keys
};

// The int8 form of a kv_pair (kv_int8<Scale>): per position u, the keys k_u as a column of codes
// (every head's, d_attn each), the values stored transposed (row h·d_mid + i holds v_iu for
// every u: the sum over positions reads a row), and their scales per head or per token.
template <class Attn, class Lctx, class Scale>
struct kv_pair_q8 {
    static constexpr std::size_t H = Attn::n_heads, d_q = Attn::qk_dim::size,
                                 d_v = Attn::v_dim::size, l = Lctx::capacity;
    static constexpr std::size_t l_pad = (l + 7) / 8 * 8;  // the kernels read 8 positions a time
    static constexpr std::size_t scales = std::is_same_v<Scale, per_head> ? H : 1;
    alignas(4) std::int8_t K[d_q * l]{};       // column u at K + u·d_q        (H·d_attn, l)
    float sK[l * scales]{};                    // its scales at sK + u·scales
    alignas(4) std::int8_t Vt[d_v * l_pad]{};  // row r at Vt + r·l_pad   (H·d_mid, l)ᵀ
    float sV[l * scales]{};
    std::size_t n = 0;  // positions held

    std::size_t cols() const noexcept { return n; }
};

// One MHAttention step's working memory over an int8 pair: the float step's, the new key and
// value before they are quantized, and the codes and int32 sums of the int8 attention.
template <class Attn, class Lctx, class Ops>
struct attention_step_q8 : attention_step<Attn, Lctx> {
    using T = typename Attn::value_type;
    using S = l_step<1>;
    static constexpr std::size_t l_pad = (Lctx::capacity + 7) / 8 * 8;
    static constexpr std::size_t d_attn = Attn::qk_dim::size / Attn::n_heads,
                                 d_mid = Attn::v_dim::size / Attn::n_heads;
    mat<T, typename Attn::qk_dim, S> k;  // k_t before it is quantized          (H·d_attn, 1)
    mat<T, typename Attn::v_dim, S> v;   // v_t                                  (H·d_mid, 1)
    // the codes of max(l, d_attn) entries, padded to the layers' vectors (8 or 16 codes)
    alignas(16) typename Ops::code codes[((l_pad > d_attn ? l_pad : d_attn) + 15) / 16 * 16]{};
    std::int32_t sums[l_pad > d_mid ? l_pad : d_mid]{};
    float weights[l_pad]{};  // α, then α_u·s_v,u
};

// The layer's attend_q8 operations for this attention and context (kernels/scalar/q8.hpp).
template <class Attn, class Lctx>
struct q8_attention_ops_of {
    static constexpr std::size_t H = Attn::n_heads, d_attn = Attn::qk_dim::size / H,
                                 d_mid = Attn::v_dim::size / H,
                                 l_pad = (Lctx::capacity + 7) / 8 * 8;
#if TYPEFORMER_HELIUM
    using type = kernels::helium::q8_attention_ops<d_attn, Attn::qk_dim::size, d_mid, l_pad>;
#elif TYPEFORMER_CORTEXM
    using type = std::conditional_t<
        d_attn % 4 == 0,
        kernels::cortexm::q8_attention_ops<d_attn, Attn::qk_dim::size, d_mid, l_pad>,
        kernels::scalar::q8_attention_ops<d_attn, Attn::qk_dim::size, d_mid, l_pad>>;
#else
    using type = kernels::scalar::q8_attention_ops<d_attn, Attn::qk_dim::size, d_mid, l_pad>;
#endif
};

// The pair and the step a Storage keeps for an attention.
template <class Storage, class Attn, class Lctx>
struct storage_of {
    using pair = kv_pair<Attn, Lctx>;
    using step = attention_step<Attn, Lctx>;
};
template <class Scale, class Attn, class Lctx>
struct storage_of<kv_int8<Scale>, Attn, Lctx> {
    using pair = kv_pair_q8<Attn, Lctx, Scale>;
    using step = attention_step_q8<Attn, Lctx, typename q8_attention_ops_of<Attn, Lctx>::type>;
};

// The column t of a cache matrix as a (rows, 1) view.
template <class M>
auto column_at(M& m, std::size_t t) noexcept {
    using V = decltype(m.view());
    using E = std::remove_pointer_t<decltype(m.data())>;
    return mat_view<E, typename V::rows_dim, l_step<1>>{m.data() + t * m.stride(), m.stride(),
                                                        m.rows(), 1};
}

// y ← W·x + b (+ r): a float W's product or an int8 one (q8_mat, models/quantized.hpp), the bias
// and the residual r (of y's shape, not y's storage) added by the product's epilogue.
template <class W, class X, class Y, class B, class R = void>
void project(const W& w, const X& x, Y&& y, const B& b, const R* r = nullptr) noexcept {
    using T = typename B::value_type;
    auto ep = kernels::gemm_epilogue<T>{}.with_bias(b.data());
    if constexpr (!std::is_void_v<R>)
        if (r)
            ep = ep.with_residual(r->data(), r->stride());
    if constexpr (requires { w.scale; })
        kernels::detail::q8_product(w, as_view(x), as_view(y), false, ep);
    else
        kernels::detail::matmul_impl(w, x, y, false, {}, ep);
}

// Lines 2–3 of Algorithm 3 for every head: k_t ← W_k e + b_k, v_t ← W_v e + b_v, appended as
// column t of K and V (which then have t + 1 columns).
template <class Attn, class Lctx, class E, class Step>
void append_key_value(const Attn& p, const E& e, kv_pair<Attn, Lctx>& kv, Step&,
                      std::size_t t) noexcept {
    kv.K.resize_cols(t + 1);
    kv.V.resize_cols(t + 1);
    project(p.W_k, e, column_at(kv.K, t), p.b_k);  // 2: k_t ← W_k e + b_k         (H·d_attn, 1)
    project(p.W_v, e, column_at(kv.V, t), p.b_v);  // 3: v_t ← W_v e + b_v          (H·d_mid, 1)
}

// Algorithm 5 for one query column e against the cached K, V (all their columns are visible:
// the causal mask is the cache's length), through Algorithm 3's lines 1, 4, 5 per head:
// out ← W_o [ṽ^1; …; ṽ^H] + b_o (+ r: the residual stream, added in the product's epilogue).
template <class Attn, class Lctx, class E, class Out>
void attend(const Attn& p, const E& e, const kv_pair<Attn, Lctx>& kv, attention_step<Attn, Lctx>& s,
            Out& out, const Out* r = nullptr) noexcept {
    using nn::detail::attention_cview;
    project(p.W_q, e, s.q, p.b_q);  // 1: q ← W_q e + b_q                            (H·d_attn, 1)
    for (std::size_t h = 0; h < Attn::n_heads; ++h)
        // 4: α ← softmax(K^hᵀ q^h / √d_attn);  5: ṽ^h ← V^h α                       (d_mid, 1)
        nn::detail::attention_core_forward_tiled(
            head(attention_cview(s.q), h), head(attention_cview(kv.K), h),
            head(attention_cview(kv.V), h), mask_bidirectional{}, head(s.Y.view(), h), s.alpha);
    project(p.W_o, s.Y, out, p.b_o, r);  // Algorithm 5, line 4: W_o Y + b_o (+ r)     (d_out, 1)
}

// Codes and scales of a new column x (rows floats) into an int8 cache, one scale per `group`
// rows (a head's, or all of them): code i goes to out[i·stride], scale g to scales[g].
template <class T>
void quantize_column(std::size_t rows, std::size_t group, const T* x, std::int8_t* out,
                     std::size_t stride, float* scales) noexcept {
    for (std::size_t g = 0; g < rows / group; ++g) {
        const float* xg = x + g * group;
        const float amax = kernels::scalar::activation_amax_q8(group, xg);
        const float inv = amax > 0 ? 127.0f / amax : 0.0f;
        for (std::size_t i = 0; i < group; ++i)
            out[(g * group + i) * stride] =
                static_cast<std::int8_t>(kernels::scalar::round_half_even(xg[i] * inv));
        scales[g] = kernels::scalar::activation_scale_q8(amax);
    }
}

// Lines 2–3 of Algorithm 3 into an int8 cache: k_t, v_t computed in float, then quantized into
// column t of K and position t of every row of Vᵀ.
template <class Attn, class Lctx, class Scale, class Step, class E>
void append_key_value(const Attn& p, const E& e, kv_pair_q8<Attn, Lctx, Scale>& kv, Step& s,
                      std::size_t t) noexcept {
    using pair = kv_pair_q8<Attn, Lctx, Scale>;
    s.k.resize_cols(1), s.v.resize_cols(1);
    project(p.W_k, e, s.k, p.b_k);  // 2: k_t ← W_k e + b_k                        (H·d_attn, 1)
    project(p.W_v, e, s.v, p.b_v);  // 3: v_t ← W_v e + b_v                         (H·d_mid, 1)
    quantize_column(pair::d_q, pair::d_q / pair::scales, s.k.data(), kv.K + t * pair::d_q, 1,
                    kv.sK + t * pair::scales);
    quantize_column(pair::d_v, pair::d_v / pair::scales, s.v.data(), kv.Vt + t, pair::l_pad,
                    kv.sV + t * pair::scales);
    kv.n = t + 1;
}

// attend() over an int8 cache: per head, kernels' attend_q8 (q and the weights α·s_v quantized
// on the fly, int32 sums), then W_o as for the float cache.
template <class Attn, class Lctx, class Scale, class Step, class E, class Out>
void attend(const Attn& p, const E& e, const kv_pair_q8<Attn, Lctx, Scale>& kv, Step& s, Out& out,
            const Out* r = nullptr) noexcept {
    using pair = kv_pair_q8<Attn, Lctx, Scale>;
    using Ops = typename q8_attention_ops_of<Attn, Lctx>::type;
    using T = typename Attn::value_type;
    constexpr std::size_t d_attn = Ops::d_attn, d_mid = Ops::d_mid;
    project(p.W_q, e, s.q, p.b_q);  // 1: q ← W_q e + b_q                            (H·d_attn, 1)
    const T scale = nn::detail::attention_scale<T, typename Attn::attn_dim>();
    for (std::size_t h = 0; h < Attn::n_heads; ++h) {
        const std::size_t g = pair::scales == 1 ? 0 : h;  // the scales of head h
        // 4: α ← softmax(K^hᵀ q^h / √d_attn);  5: ṽ^h ← V^h α                       (d_mid, 1)
        kernels::scalar::attend_q8<Ops>(kv.n, s.q.data() + h * d_attn, kv.K + h * d_attn, kv.sK + g,
                                        kv.Vt + h * d_mid * pair::l_pad, kv.sV + g, pair::scales,
                                        scale, s.weights, s.codes, s.sums, s.Y.data() + h * d_mid);
    }
    project(p.W_o, s.Y, out, p.b_o, r);  // Algorithm 5, line 4: W_o Y + b_o (+ r)     (d_out, 1)
}

// Line 8 of Algorithm 10 for one column: X ← X_mid + mlp(X̃), the residual in the epilogue.
template <class T, class E, class M, class F, class Xt, class X, class Cache>
void mlp_step(const nn::mlp<T, E, M, F>& p, const Xt& Xtilde, X& out, Cache& c,
              const X& X_mid) noexcept {
    nn::forward(p, Xtilde, out, c, X_mid);
}
template <class Mlp, class Act, class Xt, class X, class Cache>
void mlp_step(const nn::q8_mlp<Mlp, Act>& p, const Xt& Xtilde, X& out, Cache& c,
              const X& X_mid) noexcept {
    nn::forward(p, Xtilde, out, c, X_mid.data(), X_mid.stride());
}

// The newest position's logits as a span (for sample_token).
template <class Cache>
auto logits_span(const Cache& c) noexcept {
    return std::span<const typename Cache::value_type>(c.logits.data(), c.logits.rows());
}

// Validates a token before a step: range, and room for it.
template <class Model>
status check_step(std::size_t length, token x) noexcept {
    if (x >= Model::N_V::size)
        return status::token_out_of_range;
    if (length >= Model::l_max::size)
        return status::context_full;
    return status::ok;
}

}  // namespace detail

// ---- DTransformer (Algorithm 10), float or int8 weights (quantized<DTransformer>) ----

namespace detail {

// The cache of a decoder-only model: its layer_type names the attention, norm and MLP blocks.
template <class Model, class Storage>
struct decoder_only_cache {
    using model_type = Model;
    using value_type = typename Model::value_type;
    using T = value_type;
    using d_e = typename model_type::d_e;
    using N_V = typename model_type::N_V;
    using l_x = typename model_type::l_x;
    using S = l_step<1>;
    using layer_type = typename model_type::layer_type;
    using attn_type = typename layer_type::attn_type;
    using storage = Storage;
    using storage_type = storage_of<Storage, attn_type, l_x>;
    static constexpr std::size_t L = model_type::L;

    std::array<typename storage_type::pair, L> layers;  // per layer K, V at l_max
    std::array<token, l_x::capacity> x{};               // the tokens so far
    std::size_t n = 0;                                  // how many

    // One step's working memory, shared by the layers.
    mat<T, d_e, S> X;      // the stream of the new token                         (d_e, 1)
    mat<T, d_e, S> Xt;     // 5, 7, 10: its layer-normed copy                     (d_e, 1)
    mat<T, d_e, S> X_mid;  // 6: X + MHAttention(X̃, X̃)                            (d_e, 1)
    typename layer_type::norm_type::template cache<S> norm_cache;
    typename storage_type::step attn;
    typename layer_type::mlp_type::template cache<S> mlp_cache;
    mat<T, N_V, S> logits;  // 11: W_u X̃ of the newest position                   (N_V, 1)
    sampling_scratch<T, N_V::size> sampler;

    std::size_t length() const noexcept { return n; }
    std::span<const token> tokens() const noexcept { return {x.data(), n}; }
};

}  // namespace detail

template <class T, class cfg, class Storage>
struct kv_cache<DTransformer<T, cfg>, Storage>
    : detail::decoder_only_cache<DTransformer<T, cfg>, Storage> {};
template <class cfg, class Act, class Storage>
struct kv_cache<quantized<DTransformer<float, cfg>, Act>, Storage>
    : detail::decoder_only_cache<quantized<DTransformer<float, cfg>, Act>, Storage> {};

namespace detail {

// Line 2–3's e ← W_e[:, x] + W_p[:, t] for one token (the int8 model's: models/quantized.hpp).
template <class T, class cfg, class Xt>
void embed_step(const DTransformer<T, cfg>& m, const token& x, Xt&& X, std::size_t t) noexcept {
    nn::embed(m.embedding, m.positional, std::span<const token>(&x, 1), X, t);
}

// Lines 2–11 of Algorithm 10 for the token x at position t = c.n, the earlier positions' keys
// and values in c: appends this position's, leaves its logits in c.logits.
template <class Model, class Storage>
void decode_step(const Model& m, decoder_only_cache<Model, Storage>& c, token x) noexcept {
    using T = typename Model::value_type;
    constexpr T eps = static_cast<T>(Model::traits::eps);
    const std::size_t t = c.n;
    c.x[t] = x;
    c.n = t + 1;
    c.X.resize_cols(1), c.Xt.resize_cols(1), c.X_mid.resize_cols(1), c.logits.resize_cols(1);
    c.attn.q.resize_cols(1), c.attn.Y.resize_cols(1);
    embed_step(m, c.x[t], c.X, t);                // 2–3: e ← W_e[:, x] + W_p[:, t]
    for (std::size_t l = 0; l < Model::L; ++l) {  // 4
        const auto& p = m.layers[l];
        auto& kv = c.layers[l];
        nn::forward(p.ln1, c.X, c.Xt, c.norm_cache, eps);  // 5: X̃ ← layer_norm(X | γ¹, β¹)
        // 6: X ← X + MHAttention(X̃, X̃ | W_l, MaskΔ), column t: its k, v join the cache
        append_key_value(p.attn, c.Xt, kv, c.attn, t);
        attend(p.attn, c.Xt, kv, c.attn, c.X_mid, &c.X);
        nn::forward(p.ln2, c.X_mid, c.Xt, c.norm_cache, eps);  // 7: X̃ ← layer_norm(X | γ², β²)
        mlp_step(p.mlp, c.Xt, c.X, c.mlp_cache, c.X_mid);      // 8: X ← X + mlp(X̃)
    }
    nn::forward(m.ln_f, c.X, c.Xt, c.norm_cache, eps);  // 10: X̃ ← layer_norm(X | γ, β)
    unembed(m, c.Xt, c.logits);                         // 11: W_u X̃
}

}  // namespace detail

// ---- EDTransformer (Algorithm 8) ----

template <class T, class cfg>
struct kv_cache<EDTransformer<T, cfg>> {
    using model_type = EDTransformer<T, cfg>;
    using value_type = T;
    using d_e = typename model_type::d_e;
    using N_V = typename model_type::N_V;
    using l_x = typename model_type::l_x;
    using l_z = typename model_type::l_z;
    using S = l_step<1>;
    using encoder_layer_type = typename model_type::encoder_type::layer_type;
    using decoder_layer_type = typename model_type::decoder_type::layer_type;
    using attn_type = typename decoder_layer_type::attn_type;
    static constexpr std::size_t L_dec = model_type::L_dec;

    // The context: Z = encoder(z), computed once per z by encode().
    std::array<mat<T, d_e, l_z>, 1> Z;  // 1–8: the encoded context                (d_e, l_z)
    std::array<typename encoder_layer_type::template activations<l_z, workspace_kind::inference>, 1>
        encoder;  // attention in tiles: no l_z·l_z probabilities
    bool encoded = false;

    struct layer_kv {
        detail::kv_pair<attn_type, l_x> self;   // 14: keys, values of x̂ so far
        detail::kv_pair<attn_type, l_z> cross;  // 16: keys, values of Z (fixed per z)
    };
    std::array<layer_kv, L_dec> layers;
    std::array<token, l_x::capacity> x{};
    std::size_t n = 0;

    // One step's working memory, shared by the layers.
    mat<T, d_e, S> X;    // the stream of the new token                            (d_e, 1)
    mat<T, d_e, S> X_a;  // 14, 16, 18: the residual sums                          (d_e, 1)
    mat<T, d_e, S> X_1;  // 15, 17: the layer-normed stream                        (d_e, 1)
    typename decoder_layer_type::norm_type::template cache<S> norm_cache;
    detail::attention_step<attn_type, l_x> self_attn;
    detail::attention_step<attn_type, l_z> cross_attn;
    typename decoder_layer_type::mlp_type::template cache<S> mlp_cache;
    mat<T, N_V, S> logits;  // 21: W_u X of the newest position                    (N_V, 1)
    sampling_scratch<T, N_V::size> sampler;

    std::size_t length() const noexcept { return n; }
    std::span<const token> tokens() const noexcept { return {x.data(), n}; }
};

namespace detail {

// Lines 10–21 of Algorithm 8 for the token x at position t = c.n.
template <class T, class cfg>
void decode_step(const EDTransformer<T, cfg>& m, kv_cache<EDTransformer<T, cfg>>& c,
                 token x) noexcept {
    constexpr T eps = eps_of<T, cfg>;
    const std::size_t t = c.n;
    c.x[t] = x;
    c.n = t + 1;
    c.X.resize_cols(1), c.X_a.resize_cols(1), c.X_1.resize_cols(1), c.logits.resize_cols(1);
    for (auto* s : {&c.self_attn.q, &c.cross_attn.q})
        s->resize_cols(1);
    c.self_attn.Y.resize_cols(1), c.cross_attn.Y.resize_cols(1);
    // 11–12: e ← W_e[:, x] + W_p[:, t]
    nn::embed(m.embedding, m.positional, std::span<const token>(&c.x[t], 1), c.X, t);
    for (std::size_t l = 0; l < EDTransformer<T, cfg>::L_dec; ++l) {  // 13
        const auto& p = m.decoder.layers[l];
        auto& kv = c.layers[l];
        // 14: X ← X + MHAttention(X, X | W_l^dec, MaskΔ), column t
        append_key_value(p.self_attn, c.X, kv.self, c.self_attn, t);
        attend(p.self_attn, c.X, kv.self, c.self_attn, c.X_a, &c.X);
        nn::forward(p.ln1, c.X_a, c.X_1, c.norm_cache, eps);  // 15
        // 16: X ← X + MHAttention(X, Z | W_l^{e/d}, Mask ≡ 1): Z's keys and values are cached
        attend(p.cross_attn, c.X_1, kv.cross, c.cross_attn, c.X_a, &c.X_1);
        nn::forward(p.ln2, c.X_a, c.X_1, c.norm_cache, eps);  // 17
        mlp_step(p.mlp, c.X_1, c.X_a, c.mlp_cache, c.X_1);    // 18: X ← X + mlp(X)
        nn::forward(p.ln3, c.X_a, c.X, c.norm_cache, eps);    // 19
    }
    unembed(m, c.X, c.logits);  // 21: W_u X
}

}  // namespace detail

inline namespace typed {

// Lines 1–8 of Algorithm 8 once for the context z (1 ≤ ℓ_z ≤ l_max, ids < N_V): Z, and every
// decoder layer's cross-attention keys and values of Z. Resets the decoded sequence.
template <class T, class cfg>
status try_encode(const EDTransformer<T, cfg>& m, kv_cache<EDTransformer<T, cfg>>& c,
                  tokens_for<EDTransformer<T, cfg>> z) noexcept {
    const input_report r = detail::inspect<EDTransformer<T, cfg>>(z, "z");
    if (r.code != status::ok)
        return r.code;
    constexpr T eps = detail::eps_of<T, cfg>;
    detail::embed_sequence(m, z, c.Z);  // 1–3
    detail::forward_stack<workspace_kind::inference>(m.encoder.layers, c.Z, c.encoder, eps);  // 4
    for (std::size_t l = 0; l < EDTransformer<T, cfg>::L_dec; ++l) {
        const auto& p = m.decoder.layers[l].cross_attn;
        auto& kv = c.layers[l].cross;
        kv.K.resize_cols(z.size());
        kv.V.resize_cols(z.size());
        matmul(p.W_k, c.Z[0],
               kv.K);  // 16: K ← W_k Z + b_k 1ᵀ                        (H·d_attn, l_z)
        add_bias(kv.K, p.b_k);
        matmul(p.W_v, c.Z[0],
               kv.V);  // 16: V ← W_v Z + b_v 1ᵀ                        (H·d_mid, l_z)
        add_bias(kv.V, p.b_v);
    }
    c.encoded = true;
    reset(c);
    return status::ok;
}

}  // namespace typed

// ---- both ----

namespace detail {
// Whether the cache can decode: an EDTransformer's needs its context z encoded first.
template <class Model, class Storage>
constexpr bool has_context(const decoder_only_cache<Model, Storage>&) noexcept {
    return true;
}
template <class T, class cfg>
constexpr bool has_context(const kv_cache<EDTransformer<T, cfg>>& c) noexcept {
    return c.encoded;
}
}  // namespace detail

// Forget the decoded sequence (an EDTransformer's encoded context stays).
template <class Model, class Storage>
void reset(kv_cache<Model, Storage>& c) noexcept {
    c.n = 0;
}

inline namespace typed {

// One new token at position length(): its logits in c.logits. On a bad token, a full cache or
// (EDTransformer) no encoded context nothing changes.
template <class Model, class Storage>
status try_append(const Model& m, kv_cache<Model, Storage>& c, token x) noexcept {
    if (!detail::has_context(c))
        return status::no_context;
    const status s = detail::check_step<Model>(c.n, x);
    if (s == status::ok)
        detail::decode_step(m, c, x);
    return s;
}

// reset, then every token of the prompt (1 ≤ ℓ ≤ l_max, ids < N_V; checked before anything
// changes): the logits of its last position in c.logits.
template <class Model, class Storage>
status try_prefill(const Model& m, kv_cache<Model, Storage>& c, tokens_for<Model> prompt) noexcept {
    if (!detail::has_context(c))
        return status::no_context;
    const input_report r = detail::inspect<Model>(prompt, "x");
    if (r.code != status::ok)
        return r.code;
    reset(c);
    for (const token x : prompt)
        detail::decode_step(m, c, x);
    return status::ok;
}

}  // namespace typed

// The newest position's logits W_u X̃[:, t] (N_V), valid until the cache's next step.
template <class Model, class Storage>
auto logits(const kv_cache<Model, Storage>& c) noexcept {
    return c.logits.col(0);
}

// What probabilities(c, P) writes into: a vector over the model's N_V, of its scalar type.
template <class PV, class Cache>
concept probabilities_operand =
    vector<std::remove_cvref_t<PV>> && std::is_same_v < typename std::remove_cvref_t<PV>::dim_type,
typename decltype(Cache::logits)::rows_dim >
    &&same_value_type<kernels::detail::value_of<PV>, typename Cache::value_type>&&
        writable<kernels::detail::element_of<std::remove_reference_t<PV>>>;

inline namespace typed {

// P[:, t] = softmax(logits) of the newest position into P (N_V).
template <class Model, class Storage, class PV>
    requires probabilities_operand<PV, kv_cache<Model, Storage>>
void probabilities(const kv_cache<Model, Storage>& c, PV&& P) noexcept {
    using T = typename kv_cache<Model, Storage>::value_type;
    const auto l = logits(c);
    T m = l[0];
    for (std::size_t i = 1; i < l.size(); ++i)
        m = l[i] > m ? l[i] : m;
    T sum = 0;
    for (std::size_t i = 0; i < l.size(); ++i)
        sum += (P[i] = std::exp(l[i] - m));
    for (std::size_t i = 0; i < l.size(); ++i)
        P[i] /= sum;
}

}  // namespace typed

#if TYPEFORMER_HAS_EXCEPTIONS
// Host forms: throw std::invalid_argument with the status's sentence.
namespace detail {
template <class Model>
void require_ok(status s) {
    if (s != status::ok) {
        input_report r{};
        r.code = s;
        require_valid<Model>(r);
    }
}
}  // namespace detail

inline namespace typed {

template <class Model, class Storage>
void append(const Model& m, kv_cache<Model, Storage>& c, token x) {
    detail::require_ok<Model>(try_append(m, c, x));
}
template <class Model, class Storage>
void prefill(const Model& m, kv_cache<Model, Storage>& c, tokens_for<Model> prompt) {
    if (const input_report r = detail::inspect<Model>(prompt, "x"); r.code != status::ok)
        detail::require_valid<Model>(r);
    detail::require_ok<Model>(try_prefill(m, c, prompt));
}
template <class T, class cfg>
void encode(const EDTransformer<T, cfg>& m, kv_cache<EDTransformer<T, cfg>>& c,
            tokens_for<EDTransformer<T, cfg>> z) {
    if (const input_report r = detail::inspect<EDTransformer<T, cfg>>(z, "z"); r.code != status::ok)
        detail::require_valid<EDTransformer<T, cfg>>(r);
    detail::require_ok<EDTransformer<T, cfg>>(try_encode(m, c, z));
}

}  // namespace typed
#endif

// ---- a call of no form above: one error naming both models, or both vocabularies ----

TYPEFORMER_MODEL_FALLBACK(try_append, in::try_append, detail::model_call_error<Model, A...>());
TYPEFORMER_MODEL_FALLBACK(try_prefill, in::try_prefill, detail::model_call_error<Model, A...>());
TYPEFORMER_MODEL_FALLBACK(try_encode, in::try_encode,
                          detail::first_error(detail::check_architecture<EDTransformer, Model>(),
                                              detail::model_call_error<Model, A...>()));
// (encode: also models/forward.hpp's encode(model, z, ws), declared before this)
TYPEFORMER_MODEL_FALLBACK(encode, in::encode,
                          detail::first_error(detail::check_architecture<EDTransformer, Model>(),
                                              detail::model_call_error<Model, A...>()));
#if TYPEFORMER_HAS_EXCEPTIONS
TYPEFORMER_MODEL_FALLBACK(append, in::append, detail::model_call_error<Model, A...>());
TYPEFORMER_MODEL_FALLBACK(prefill, in::prefill, detail::model_call_error<Model, A...>());
#endif
// probabilities(c, P): P a vector over the model's N_V, written.
namespace detail {
template <class Cache, class PV>
constexpr auto probabilities_error() {
    using N_V = typename decltype(Cache::logits)::rows_dim;
    return or_arguments<PV>(first_error(check_vector<role::P, PV>(),
                                        check_rows<role::P, PV, N_V, logits_rows<N_V>>(),
                                        check_scalar<role::P, PV, typename Cache::value_type,
                                                     logits_scalar<typename Cache::value_type>>(),
                                        check_writable<role::P, PV>()));
}
}  // namespace detail
// reset(x) of something else of a model's (the model, a workspace): the cache it needs.
namespace detail {
template <class X>
constexpr auto reset_error() {
    using B = belongs_to<X>;
    using M = typename B::model;
    if constexpr (architecture<X>)
        return what<model<X>, needed<kv_cache<X>>>{};
    else
        return what<typename B::template role<M>, needed<kv_cache<M>>>{};
}
}  // namespace detail
template <class X>
    requires(!detail::is_kv_cache<X> && requires { typename detail::belongs_to<X>::model; })
auto reset(X& x) noexcept
    -> decltype(detail::shape_error_of<in::reset>(detail::reset_error<std::remove_const_t<X>>()));
// logits(x) of something else of a model's (a workspace, the model): the cache it needs.
template <class X>
    requires(!detail::is_kv_cache<std::remove_const_t<X>> &&
             !detail::architecture<std::remove_const_t<X>> &&
             requires { typename detail::belongs_to<std::remove_const_t<X>>::model; })
auto logits(X& x) noexcept
    -> decltype(detail::shape_error_of<in::logits>(detail::reset_error<std::remove_const_t<X>>()));
template <class Model, class Storage, class PV>
    requires(!probabilities_operand<PV, kv_cache<Model, Storage>>)
auto probabilities(const kv_cache<Model, Storage>& c, PV&& P) noexcept
    -> decltype(detail::shape_error_of<in::probabilities>(
        detail::probabilities_error<kv_cache<Model, Storage>, PV>()));

}  // namespace typeformer
