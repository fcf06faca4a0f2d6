// An inference model with int8 weights: quantized<DTransformer<float, cfg>, Act> (aliases
// q8<Model> and q8a8<Model>), every weight matrix a q8_mat (int8 per output row, one float scale
// per row: kernels/q8.hpp), biases, layer norms and W_p float. For models whose weights must fit
// in flash. Act is what the products do with their float inputs:
//
//   q8<Model>     quantized<Model, float_activations>: the inputs stay float, each weight is
//                 widened to float (the flash shrinks, the arithmetic is float's)
//   q8a8<Model>   quantized<Model, int8_activations<per_token>>: each product quantizes its input
//                 column (the token's) to int8 on the fly and sums int8 × int8 in int32, on the
//                 DSP extension's SMLAD on a Cortex-M4/M7 (kernels/cortexm/q8.hpp); the MLP's
//                 GELU maps W_1's output to W_2's int8 input through a table (on int8 codes,
//                 kernels/scalar/q8.hpp); layer norms and softmax stay float
//   quantized<Model, int8_activations<per_tensor>>   one scale per product's whole input (the same
//                 as per_token for a decoding step's one column)
//
//   quantize(model, q)      q ← the int8 form of a trained float DTransformer (no heap: q is
//                           the caller's, e.g. static; on a host also `auto q = quantize(model)`
//                           into a unique_ptr, see docs/quantization.md)
//   dequantize(q, model)    model ← the float DTransformer q stands for (its weights rounded)
//   decoding                kv_cache<q8<Model>>, try_prefill / try_append / try_DInference and
//                           the host forms (infer/), as for the float model
//
// What is quantized, per layer: W_q, W_k, W_v, W_o (MHAttention), W_1, W_2 (MLP); and W_e, held
// as W_eᵀ (N_V, d_e): row v is token v's embedding, so the gather reads one row, and a tied
// W_u = W_eᵀ is the same q8_mat; an untied W_u (N_V, d_e) is its own. The type is derived from
// the float model's (the same config, the same norm and positional types), so a q8 model
// exists for every DTransformer config, and the float model's footprint and the q8 one's are
// sizeof of the two types. It is an aggregate and quantize is constexpr: a q8 model can be
// computed at compile time from a constexpr float model (e.g. an exported header's) and sit in
// flash as a constexpr/constinit object.
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <type_traits>

#include "../kernels.hpp"
#include "../kernels/q8.hpp"
#include "../nn/embedding.hpp"
#include "../nn/mlp.hpp"
#include "../tensor.hpp"
#include "../token.hpp"
#include "diagnose.hpp"
#include "dtransformer.hpp"

namespace typeformer {

namespace nn {

// Algorithm 5's parameters with int8 matrices: the float MHAttention's dimensions, q8 W. Of
// anything but an MHAttention: one error naming q8_attention and the argument.
template <class Attn, class Act = float_activations>
struct q8_attention {
    static_assert(
        sizeof(shape_error<in::q8_attention, template_argument<Attn>, needed<an_MHAttention>>) > 0);
};
template <class T, class Dx, class Dz, class Da, class Dm, class Do, class H, class Act>
struct q8_attention<MHAttention<T, Dx, Dz, Da, Dm, Do, H>, Act> {
    using Attn = MHAttention<T, Dx, Dz, Da, Dm, Do, H>;
    using value_type = typename Attn::value_type;
    using qk_dim = typename Attn::qk_dim;  // H·d_attn
    using v_dim = typename Attn::v_dim;    // H·d_mid
    using attn_dim = typename Attn::attn_dim;
    static constexpr std::size_t n_heads = Attn::n_heads;
    q8_mat<qk_dim, typename Attn::x_dim, Act> W_q;
    vec<value_type, qk_dim> b_q;
    q8_mat<qk_dim, typename Attn::z_dim, Act> W_k;
    vec<value_type, qk_dim> b_k;
    q8_mat<v_dim, typename Attn::z_dim, Act> W_v;
    vec<value_type, v_dim> b_v;
    q8_mat<typename Attn::out_dim, v_dim, Act> W_o;
    vec<value_type, typename Attn::out_dim> b_o;
};

// The MLP's parameters with int8 W_1, W_2. Of anything but an mlp: one error naming q8_mlp.
template <class Mlp, class Act = float_activations>
struct q8_mlp {
    static_assert(sizeof(shape_error<in::q8_mlp, template_argument<Mlp>, needed<an_mlp>>) > 0);
};
template <class T, class E, class M, class F, class Act>
struct q8_mlp<mlp<T, E, M, F>, Act> {
    using float_type = mlp<T, E, M, F>;
    using activation_type = F;  // the MLP's nonlinearity (GELU)
    template <dimension C>
    using cache = typename float_type::template cache<C>;
    q8_mat<M, E, Act> W_1;  // (d_mlp, d_e)
    vec<T, M> b_1;
    q8_mat<E, M, Act> W_2;  // (d_e, d_mlp)
    vec<T, E> b_2;
};

inline namespace typed {

// Y = W_2·F(W_1·X + b_1 1ᵀ) + b_2 1ᵀ (+ R) (nn/mlp.hpp), the products on int8 weights, the biases
// and the residual R their epilogues (R must not share Y's storage).
template <class T, class E, class M, class F, class Act, class Xt, class Yt>
    requires columnwise_operands<T, E, Xt, Yt>
void forward(const q8_mlp<mlp<T, E, M, F>, Act>& p, const Xt& X, Yt&& Y,
             typename mlp<T, E, M, F>::template cache<detail::cols_of<Xt>>& c,
             const float* R = nullptr, std::size_t ldr = 0) noexcept {
    using Mlp = mlp<T, E, M, F>;
    using kernels::gemm_epilogue;
    const auto Xv = as_view(X);  // (d_e, C)
    detail::set_length(c.pre, Xv.cols());
    // W¹_mlp X + b¹_mlp 1ᵀ                                                         (d_mlp, C)
    kernels::detail::q8_product(p.W_1, Xv, as_view(c.pre), false,
                                gemm_epilogue<float>{}.with_bias(p.b_1.data()));
    auto out = gemm_epilogue<float>{}.with_bias(p.b_2.data());
    if (R)
        out = out.with_residual(R, ldr);
    if constexpr (!std::is_same_v<Act, float_activations> && std::is_same_v<F, nn::gelu>) {
        // W²_mlp GELU(·) + b²_mlp 1ᵀ (+ R), GELU on the int8 codes by a table (kernels/q8.hpp);
        // c.act is not written (no backward runs through an int8 model)         (d_e, C)
        kernels::detail::q8_gelu_product(p.W_2, as_view(c.pre), as_view(Y), out);
    } else {
        detail::set_length(c.act, Xv.cols());
        q8_mlp<Mlp, Act>::activation_type::forward(c.pre, c.act);  // F(·)
        // W²_mlp · + b²_mlp 1ᵀ (+ R)                                               (d_e, C)
        kernels::detail::q8_product(p.W_2, as_view(c.act), as_view(Y), false, out);
    }
}

}  // namespace typed

// A call of no form above: the float MLP's diagnosis (its in::MLP), on the int8 weights.
template <class T, class E, class M, class F, class Act, class... A>
    requires(!requires(const q8_mlp<mlp<T, E, M, F>, Act>& p, A&&... a) {
        typed::forward(p, static_cast<A&&>(a)...);
    })
auto forward(const q8_mlp<mlp<T, E, M, F>, Act>& p, A&&... args) noexcept
    -> decltype(typeformer::detail::shape_error_of<in::MLP>(
        detail::columnwise_forward_error<mlp<T, E, M, F>, T, E, W_1_cols<E>, W_2_rows<E>,
                                         W_1_scalar<T>, A...>()));

}  // namespace nn

// The int8 form of a float model; only DTransformer<float, cfg> so far. Act, an activation_kind,
// is checked by the specialisation (train/training.hpp declares this template too).
template <class Model, class Act = float_activations>
struct quantized;

namespace detail {
// What naming the int8 form of a model without one reports (shape_error.hpp): the model, and the
// one that has an int8 form.
template <class Model>
struct int8_form {
    using what = detail::what<model<Model>>;
};
template <template <class, class> class Architecture, class T, class cfg>
struct int8_form<Architecture<T, cfg>> {
    using what = detail::what<model<Architecture<T, cfg>>, needed<DTransformer<float, cfg>>>;
};
// q8<Model>, q8a8<Model>: quantized<Model, Act>, or a type whose definition is that error, so
// that `q8<ETransformer<float, cfg>> q;` says it (an alias of the incomplete shape_error itself
// would print as q8<ETransformer<...>> only).
template <class Model, class Act = float_activations>
struct q8_type {
    struct type {
        static_assert(sizeof(decltype(shape_error_of<in::q8>(typename int8_form<Model>::what{}))));
    };
};
template <model_config cfg, class Act>
struct q8_type<DTransformer<float, cfg>, Act> {
    using type = quantized<DTransformer<float, cfg>, Act>;
};
}  // namespace detail

template <class Model>
using q8 = typename detail::q8_type<Model>::type;
template <class Model>
using q8a8 = typename detail::q8_type<Model, int8_activations<per_token>>::type;

template <model_config cfg, activation_kind Act>
struct quantized<DTransformer<float, cfg>, Act> {
    using float_model = DTransformer<float, cfg>;
    using value_type = float;
    using traits = typename float_model::traits;
    using d_e = typename float_model::d_e;
    using N_V = typename float_model::N_V;
    using l_max = typename float_model::l_max;
    using l_x = typename float_model::l_x;
    using activations = Act;
    static constexpr const char* name = std::is_same_v<Act, float_activations>
                                            ? "DTransformer (int8)"
                                            : "DTransformer (int8, int8 activations)";
    static constexpr std::size_t sequences = 1;
    static constexpr std::size_t L = float_model::L;

    struct layer_type {
        using norm_type = typename float_model::layer_type::norm_type;
        using attn_type = nn::q8_attention<typename float_model::layer_type::attn_type, Act>;
        using mlp_type = nn::q8_mlp<typename float_model::layer_type::mlp_type, Act>;
        norm_type ln1;
        attn_type attn;
        norm_type ln2;
        mlp_type mlp;
    };
    struct no_unembedding {};                      // tied: W_u = W_eᵀ is `embedding`
    using embedding_type = q8_mat<N_V, d_e, Act>;  // W_eᵀ: row v is token v's embedding
    using positional_type = typename float_model::positional_type;
    using norm_type = typename float_model::norm_type;
    using unembedding_type =
        std::conditional_t<traits::tied, no_unembedding, q8_mat<N_V, d_e, Act>>;

    embedding_type embedding;
    [[no_unique_address]] positional_type positional;
    std::array<layer_type, L> layers;
    norm_type ln_f;
    [[no_unique_address]] unembedding_type unembedding;
};

namespace detail {

// Decoding's hooks (infer/kv_cache.hpp): e ← W_e[:, x] + W_p[:, t] from the int8 row of x,
// and logits = W_u X̃ on the int8 W_u (or W_eᵀ, tied).
template <class cfg, class Act, class Xt>
void embed_step(const quantized<DTransformer<float, cfg>, Act>& m, token x, Xt&& X,
                std::size_t t) noexcept {
    using model_type = quantized<DTransformer<float, cfg>, Act>;
    auto e = as_view(X).col(0);
    for (std::size_t r = 0; r < model_type::d_e::size; ++r)
        e[r] = m.embedding(x, r);  // W_e[:, x] = row x of W_eᵀ
    if constexpr (requires { m.positional.W_p; })
        axpy(1.0f, m.positional.W_p.col(t), e);  // + W_p[:, t]
    else
        m.positional.add_column(t, e.data());  // §5's sinusoidal W_p (float on a device)
}
template <class cfg, class Act, class Xv, class Lv>
void unembed(const quantized<DTransformer<float, cfg>, Act>& m, const Xv& X, Lv&& logits) noexcept {
    if constexpr (quantized<DTransformer<float, cfg>, Act>::traits::tied)
        matmul(m.embedding, X, logits);  // W_u = W_eᵀ
    else
        matmul(m.unembedding, X, logits);
}

}  // namespace detail

namespace detail {

// One weight of a float model and the q8 one: quantized, dequantized, or (same type) copied.
template <class A, class B>
constexpr void convert_weight(const A& a, B& b) noexcept {
    if constexpr (std::is_same_v<A, B>)
        b = a;  // biases, layer norms, W_p
    else if constexpr (requires { a.scale; })
        dequantize(a, b);
    else
        quantize(a, b);
}
// W_e (d_e, N_V) and the q8 W_eᵀ (N_V, d_e).
template <class T, class E, class V, class Act>
constexpr void convert_weight(const nn::token_embedding<T, E, V>& a,
                              q8_mat<V, E, Act>& b) noexcept {
    quantize_transposed(a.W_e, b);
}
template <class T, class E, class V, class Act>
constexpr void convert_weight(const q8_mat<V, E, Act>& a,
                              nn::token_embedding<T, E, V>& b) noexcept {
    for (std::size_t v = 0; v < V::size; ++v)
        for (std::size_t r = 0; r < E::size; ++r)
            b.W_e(r, v) = a(v, r);
}
// An untied W_u: the float model's nn::unembedding holds it as W_u, the q8 model as itself.
template <class U>
constexpr auto& unembedding_matrix(U& u) noexcept {
    if constexpr (requires { u.W_u; })
        return u.W_u;
    else
        return u;
}

// The walk quantize and dequantize share: from one model's parameters into the other's.
template <class From, class To>
constexpr void convert_model(const From& a, To& b) noexcept {
    convert_weight(a.embedding, b.embedding);
    b.positional = a.positional;
    for (std::size_t l = 0; l < a.layers.size(); ++l) {
        const auto& f = a.layers[l];
        auto& g = b.layers[l];
        convert_weight(f.ln1, g.ln1), convert_weight(f.ln2, g.ln2);
        convert_weight(f.attn.W_q, g.attn.W_q), convert_weight(f.attn.b_q, g.attn.b_q);
        convert_weight(f.attn.W_k, g.attn.W_k), convert_weight(f.attn.b_k, g.attn.b_k);
        convert_weight(f.attn.W_v, g.attn.W_v), convert_weight(f.attn.b_v, g.attn.b_v);
        convert_weight(f.attn.W_o, g.attn.W_o), convert_weight(f.attn.b_o, g.attn.b_o);
        convert_weight(f.mlp.W_1, g.mlp.W_1), convert_weight(f.mlp.b_1, g.mlp.b_1);
        convert_weight(f.mlp.W_2, g.mlp.W_2), convert_weight(f.mlp.b_2, g.mlp.b_2);
    }
    b.ln_f = a.ln_f;
    if constexpr (!From::traits::tied)
        convert_weight(unembedding_matrix(a.unembedding), unembedding_matrix(b.unembedding));
}

}  // namespace detail

inline namespace typed {

// q ← the int8 form of m.
template <class cfg, class Act>
constexpr void quantize(const DTransformer<float, cfg>& m,
                        quantized<DTransformer<float, cfg>, Act>& q) noexcept {
    detail::convert_model(m, q);
}

// m ← the float model q stands for: every weight scale_i · q_ij, the rest copied.
template <class cfg, class Act>
constexpr void dequantize(const quantized<DTransformer<float, cfg>, Act>& q,
                          DTransformer<float, cfg>& m) noexcept {
    detail::convert_model(q, m);
}

}  // namespace typed

// ---- a call of no form above: the model without an int8 form, or the two models ----

namespace detail {
template <class Model, class Act>
struct belongs_to<quantized<Model, Act>> {  // an int8 model given where its float model is meant
    using model = Model;
    template <class M>
    using role = q8_of<M>;
};
// quantize(m, q): m a float DTransformer (else: the model that has an int8 form), q its int8 form.
template <class M, class... A>
constexpr auto quantize_error() {
    if constexpr (std::is_same_v<typename q8_type<M>::type, quantized<M>>)
        return model_call_error<M, A...>();
    else
        return typename int8_form<M>::what{};
}
}  // namespace detail
TYPEFORMER_MODEL_FALLBACK(quantize, in::quantize, detail::quantize_error<Model, A...>());
namespace detail {
// dequantize(q, m): m the float model q was quantized from; the error names q's model against m.
template <class Q, class... A>
constexpr auto dequantize_error() {
    if constexpr (sizeof...(A) == 1 && (architecture<bare_t<A>> && ...))
        return model_call_error<bare_t<A>..., Q>();
    else
        return model_call_error<Q, A...>();
}
}  // namespace detail
TYPEFORMER_MODEL_FALLBACK(dequantize, in::dequantize, detail::dequantize_error<Model, A...>());

}  // namespace typeformer
