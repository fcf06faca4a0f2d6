// Which parameters train, as a type: the trainable part of a model is its own struct, so the
// gradient and optimiser buffers of a partial mode exist only for it (`sizeof` proves it), and
// the frozen base can be a `const` (constexpr, flash) model.
//
//   train_all                          every parameter: trainable<Model, train_all> is Model
//   train_gains_biases                 every γ, β and b_* (TinyTL's bias-only update, BitFit)
//   train_last<k>                      layers L − k … L − 1, ln_f and W_u (the top of the network)
//   train_lora<r, targets, alpha>      low-rank adapters ΔW = (α/r)·B·A on the chosen matrices of
//                                      every layer (LoRA; A (r, in) random, B (out, r) zero), over
//                                      a frozen base
//
//   trainable<Model, S>                the trainable struct. Its leaves are named as the model's
//                                      (`layers.1.ln2.gamma`, `layers.3.mlp.b_1`), an adapter's as
//                                      `layers.{l}.attn.W_q.A|B`, so files and checkpoints read
//                                      like the weights file (docs/weights.md)
//   trainable_from(base, tr)           the trainable copies of the base's values (gains/biases,
//                                      last k), or the adapters' initialisation (LoRA: init_lora)
//   init_lora(adapters, seed)          A ~ U(−1/√in, 1/√in) (PEFT's kaiming_uniform(a=√5)),
//                                      B = 0, so the adapted model starts as the base; float only
//   apply_trainable(tr, model)         model's leaves ← tr's (gains/biases, last k), or
//                                      W ← W + (α/r)·B·A (LoRA: merges the adapters, for export)
//
// Only DTransformer (Algorithm 10) has partial modes so far (train/step.hpp); ETransformer and
// EDTransformer train every parameter (train/training.hpp).
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <boost/hana/accessors.hpp>
#include <boost/hana/at_key.hpp>
#include <boost/hana/define_struct.hpp>
#include <boost/hana/for_each.hpp>
#include <boost/hana/pair.hpp>

#include "../dim.hpp"
#include "../kernels.hpp"
#include "../models/diagnose.hpp"
#include "../models/dtransformer.hpp"
#include "../nn/gradient.hpp"
#include "../params.hpp"
#include "../random.hpp"
#include "../tensor.hpp"

namespace typeformer {

TYPEFORMER_DIM(lora_r);  // a low-rank adapter's rank r

// ---- what trains ----

struct train_all {
    static constexpr const char* name = "all";
};
struct train_gains_biases {
    static constexpr const char* name = "gains_biases";
};
template <std::size_t K>
struct train_last {
    static_assert(K >= 1,
                  "train_last<k>: k ≥ 1 layers (k = 0 trains only ln_f and W_u: not a mode)");
    static constexpr std::size_t k = K;
    static constexpr const char* name = "last";
};

// The matrices of a layer that get an adapter (a bit set): W_q, W_k, W_v, W_o of the attention,
// W_1, W_2 of the MLP.
enum class lora_target : unsigned { W_q = 1, W_k = 2, W_v = 4, W_o = 8, W_1 = 16, W_2 = 32 };
constexpr lora_target operator|(lora_target a, lora_target b) noexcept {
    return static_cast<lora_target>(static_cast<unsigned>(a) | static_cast<unsigned>(b));
}
constexpr bool has_target(lora_target set, lora_target t) noexcept {
    return (static_cast<unsigned>(set) & static_cast<unsigned>(t)) != 0;
}

// Rank r, the adapted matrices, and α (the update is scaled by α/r, as in LoRA and PEFT; α = r
// scales by 1).
template <std::size_t Rank, lora_target Targets = lora_target::W_q | lora_target::W_v,
          std::size_t Alpha = Rank>
struct train_lora {
    static_assert(Rank >= 1, "train_lora<r>: the rank r is at least 1");
    static_assert(static_cast<unsigned>(Targets) != 0 && static_cast<unsigned>(Targets) < 64,
                  "train_lora: adapt at least one of W_q, W_k, W_v, W_o, W_1, W_2");
    static constexpr std::size_t rank = Rank, alpha = Alpha;
    static constexpr lora_target targets = Targets;
    static constexpr const char* name = "lora";
};

template <class S>
inline constexpr bool is_lora = false;
template <std::size_t R, lora_target Tg, std::size_t A>
inline constexpr bool is_lora<train_lora<R, Tg, A>> = true;

template <class S>
concept trainable_selection =
    std::is_same_v<S, train_all> || std::is_same_v<S, train_gains_biases> || requires {
    S::k;
} || is_lora<S>;

// ---- the gains and biases of each block (the same member names as the block) ----

// Of a block without gains or biases of this kind (a model, a config): one error naming it.
template <class Block>
struct gains_biases_of {
    static_assert(sizeof(shape_error<in::gains_biases_of, template_argument<Block>,
                                     needed<a_norm_attention_mlp_or_gpt_layer>>) > 0);
};

template <class T, class D>
struct gains_biases_of<nn::layer_norm<T, D>> {
    using type = nn::layer_norm<T, D>;  // γ, β: all of it
};
template <class T, class D>
struct gains_biases_of<nn::rms_norm<T, D>> {
    using type = nn::rms_norm<T, D>;
};

namespace detail {
template <class T, class Qk, class V, class Dout>
struct attention_biases {
    using b_q_type = vec<T, Qk>;
    using b_v_type = vec<T, V>;
    using b_o_type = vec<T, Dout>;
    BOOST_HANA_DEFINE_STRUCT(attention_biases, (b_q_type, b_q), (b_q_type, b_k), (b_v_type, b_v),
                             (b_o_type, b_o));
};
template <class T, class E, class M>
struct mlp_biases {
    using b_1_type = vec<T, M>;
    using b_2_type = vec<T, E>;
    BOOST_HANA_DEFINE_STRUCT(mlp_biases, (b_1_type, b_1), (b_2_type, b_2));
};
template <class Norm, class Attn, class Mlp>
struct gpt_layer_gains_biases {
    BOOST_HANA_DEFINE_STRUCT(gpt_layer_gains_biases, (Norm, ln1), (Attn, attn), (Norm, ln2),
                             (Mlp, mlp));
};
}  // namespace detail

template <class T, class Dx, class Dz, class Da, class Dm, class Do, class H>
struct gains_biases_of<nn::MHAttention<T, Dx, Dz, Da, Dm, Do, H>> {
    using type = detail::attention_biases<T, prod<H, Da>, prod<H, Dm>, Do>;
};
template <class T, class E, class M, class Act>
struct gains_biases_of<nn::mlp<T, E, M, Act>> {
    using type = detail::mlp_biases<T, E, M>;
};
template <class T, class cfg>
struct gains_biases_of<gpt_layer<T, cfg>> {
    using L = gpt_layer<T, cfg>;
    using type =
        detail::gpt_layer_gains_biases<typename gains_biases_of<typename L::norm_type>::type,
                                       typename gains_biases_of<typename L::attn_type>::type,
                                       typename gains_biases_of<typename L::mlp_type>::type>;
};

namespace detail {
// The parts exist for a DTransformer in float or double. Another architecture's, or the int8
// model's (it is for inference: fine-tune the float model, then quantize), is one error naming
// the model it needs (shape_error.hpp), in each part's primary template below.
template <class Model>
constexpr auto partial_model_error() {
    if constexpr (requires { typename Model::float_model; })
        return what<q8_of<typename Model::float_model>, needed<typename Model::float_model>>{};
    else
        return check_architecture<DTransformer, Model>();
}
}  // namespace detail

// Every γ, β and b_* of a DTransformer: layers.{l}.ln1|attn|ln2|mlp's, and ln_f.
template <class Model>
struct gains_biases {
    static_assert(sizeof(
        decltype(detail::shape_error_of<in::gains_biases>(detail::partial_model_error<Model>()))));
};
template <class T, class cfg>
struct gains_biases<DTransformer<T, cfg>> {
    using model_type = DTransformer<T, cfg>;
    using selection = train_gains_biases;
    using value_type = T;
    using layers_type =
        std::array<typename gains_biases_of<typename model_type::layer_type>::type, model_type::L>;
    using norm_type = typename gains_biases_of<typename model_type::norm_type>::type;
    BOOST_HANA_DEFINE_STRUCT(gains_biases, (layers_type, layers), (norm_type, ln_f));
};

// ---- the last k layers, ln_f and the unembedding ----

// layers.{L−k} … layers.{L−1}, ln_f and W_u. Tied (W_u = W_eᵀ): the unembedding is W_e, whose
// gradient runs through every layer, so it stays frozen (the member is the empty tied_unembedding).
template <class Model, std::size_t K>
struct last_layers {
    static_assert(sizeof(
        decltype(detail::shape_error_of<in::last_layers>(detail::partial_model_error<Model>()))));
};
template <class T, class cfg, std::size_t K>
struct last_layers<DTransformer<T, cfg>, K> {
    using model_type = DTransformer<T, cfg>;
    using selection = train_last<K>;
    using value_type = T;
    static_assert(K <= model_type::L, "train_last<k>: k is at most the model's L layers");
    static constexpr std::size_t first_layer = model_type::L - K;
    using layers_type = layers_from<typename model_type::layer_type, K, first_layer>;
    using norm_type = typename model_type::norm_type;
    using unembedding_type = typename model_type::unembedding_type;
    BOOST_HANA_DEFINE_STRUCT(last_layers, (layers_type, layers), (norm_type, ln_f),
                             ([[no_unique_address]] unembedding_type, unembedding));
};

// ---- low-rank adapters ----

// ΔW = (α/r)·B·A for a W (Out, In): A (r, In), B (Out, r).
template <class T, fixed_dimension Out, fixed_dimension In, std::size_t R>
struct lora_adapter {
    using value_type = T;
    using out_dim = Out;
    using in_dim = In;
    using A_type = mat<T, lora_r<R>, In>;   // (r, in)
    using B_type = mat<T, Out, lora_r<R>>;  // (out, r)
    BOOST_HANA_DEFINE_STRUCT(lora_adapter, (A_type, A), (B_type, B));
};

// A matrix without an adapter: no member in files, no bytes ([[no_unique_address]]); K tells the
// members of one struct apart (two empty members of one type cannot share an address).
template <int K>
struct no_adapter {
    BOOST_HANA_DEFINE_STRUCT(no_adapter);
};

template <class X>
inline constexpr bool is_adapter = false;
template <class T, class O, class I, std::size_t R>
inline constexpr bool is_adapter<lora_adapter<T, O, I, R>> = true;

namespace detail {
template <bool On, class Adapter, int K>
using adapter_if = std::conditional_t<On, Adapter, no_adapter<K>>;

template <class Q, class K_, class V, class O>
struct attention_adapters {
    BOOST_HANA_DEFINE_STRUCT(attention_adapters, ([[no_unique_address]] Q, W_q),
                             ([[no_unique_address]] K_, W_k), ([[no_unique_address]] V, W_v),
                             ([[no_unique_address]] O, W_o));
};
template <class W1, class W2>
struct mlp_adapters {
    BOOST_HANA_DEFINE_STRUCT(mlp_adapters, ([[no_unique_address]] W1, W_1),
                             ([[no_unique_address]] W2, W_2));
};
template <class Attn, class Mlp>
struct layer_adapters {
    BOOST_HANA_DEFINE_STRUCT(layer_adapters, ([[no_unique_address]] Attn, attn),
                             ([[no_unique_address]] Mlp, mlp));
};

template <class T, class cfg, class S>
struct lora_of_layer {
    using Lr = gpt_layer<T, cfg>;
    using A = typename Lr::attn_type;
    using M = typename Lr::mlp_type;
    static constexpr std::size_t R = S::rank;
    static constexpr lora_target tg = S::targets;
    using attn = attention_adapters<
        adapter_if<has_target(tg, lora_target::W_q),
                   lora_adapter<T, typename A::qk_dim, typename A::x_dim, R>, 0>,
        adapter_if<has_target(tg, lora_target::W_k),
                   lora_adapter<T, typename A::qk_dim, typename A::z_dim, R>, 1>,
        adapter_if<has_target(tg, lora_target::W_v),
                   lora_adapter<T, typename A::v_dim, typename A::z_dim, R>, 2>,
        adapter_if<has_target(tg, lora_target::W_o),
                   lora_adapter<T, typename A::out_dim, typename A::v_dim, R>, 3>>;
    using mlp = mlp_adapters<adapter_if<has_target(tg, lora_target::W_1),
                                        lora_adapter<T, typename config_traits<cfg>::d_mlp,
                                                     typename config_traits<cfg>::d_e, R>,
                                        4>,
                             adapter_if<has_target(tg, lora_target::W_2),
                                        lora_adapter<T, typename config_traits<cfg>::d_e,
                                                     typename config_traits<cfg>::d_mlp, R>,
                                        5>>;
    using type = layer_adapters<attn, mlp>;
};
}  // namespace detail

// The adapters of every layer: layers.{l}.attn.W_q.A|B, … (the targets of S).
template <class Model, class S>
struct lora_adapters {
    static_assert(sizeof(
        decltype(detail::shape_error_of<in::lora_adapters>(detail::partial_model_error<Model>()))));
};
template <class T, class cfg, std::size_t R, lora_target Tg, std::size_t Alpha>
struct lora_adapters<DTransformer<T, cfg>, train_lora<R, Tg, Alpha>> {
    using model_type = DTransformer<T, cfg>;
    using selection = train_lora<R, Tg, Alpha>;
    using value_type = T;
    using layer_type = typename detail::lora_of_layer<T, cfg, selection>::type;
    using layers_type = std::array<layer_type, model_type::L>;
    BOOST_HANA_DEFINE_STRUCT(lora_adapters, (layers_type, layers));
};

// ---- trainable<Model, S> ----

namespace detail {
template <class Model, class S>
struct trainable_of {
    static_assert(sizeof(decltype(shape_error_of<in::trainable>(partial_model_error<Model>()))));
    using type = trainable_of;  // one error, not a second one for the variable
};

template <class T, class cfg>
struct trainable_of<DTransformer<T, cfg>, train_all> {
    using type = DTransformer<T, cfg>;
};
template <class T, class cfg>
struct trainable_of<DTransformer<T, cfg>, train_gains_biases> {
    using type = gains_biases<DTransformer<T, cfg>>;
};
template <class T, class cfg, std::size_t K>
struct trainable_of<DTransformer<T, cfg>, train_last<K>> {
    using type = last_layers<DTransformer<T, cfg>, K>;
};
template <class T, class cfg, std::size_t R, lora_target Tg, std::size_t A>
struct trainable_of<DTransformer<T, cfg>, train_lora<R, Tg, A>> {
    using type = lora_adapters<DTransformer<T, cfg>, train_lora<R, Tg, A>>;
};
}  // namespace detail

template <class Model, trainable_selection S>
using trainable = typename detail::trainable_of<Model, S>::type;

// A trainable part of a model (not the model itself, train_all's part).
template <class X>
inline constexpr bool is_trainable_part = false;
template <class M>
inline constexpr bool is_trainable_part<gains_biases<M>> = true;
template <class M, std::size_t K>
inline constexpr bool is_trainable_part<last_layers<M, K>> = true;
template <class M, class S>
inline constexpr bool is_trainable_part<lora_adapters<M, S>> = true;

// The adapters of trainable<Model, train_lora<...>> (what init_lora initialises).
template <class X>
concept lora_part = is_trainable_part<X> && is_lora<typename X::selection>;

namespace detail {
template <class X>
    requires is_trainable_part<X>
struct belongs_to<X> {
    using model = typename X::model_type;
    template <class M>
    using role = part_of<M>;
};
}  // namespace detail

// What a trainable struct belongs to: its model and selection (a model is its own train_all).
template <class Tr>
struct trainable_traits {
    using model_type = Tr;
    using selection = train_all;
};
template <class Tr>
    requires requires {
        typename Tr::model_type;
        typename Tr::selection;
    }
struct trainable_traits<Tr> {
    using model_type = typename Tr::model_type;
    using selection = typename Tr::selection;
};
template <class Tr>
using selection_of = typename trainable_traits<Tr>::selection;

// Tr is the trainable part of Model under some selection.
template <class Tr, class Model>
concept trainable_of_model =
    std::is_same_v<Tr, trainable<Model, selection_of<Tr>>> && trainable_selection<selection_of<Tr>>;

// The scale α/r of a LoRA selection, in T (1 for the other selections).
template <class T, class S>
inline constexpr T lora_scale = [] {
    if constexpr (is_lora<S>)
        return static_cast<T>(S::alpha) / static_cast<T>(S::rank);
    else
        return T(1);
}();

// ---- set-up: the trainable values from the base ----

namespace detail {
// f(part_leaf, model_leaf) for every leaf of a trainable part and the model's leaf of the same
// name (layers_from's layer i is the model's layer first_index + i).
template <class Part, class Full, class F>
constexpr void for_each_leaf_named_in(Part& part, Full& full, F&& f) noexcept {
    namespace hana = boost::hana;
    using U = std::remove_cvref_t<Part>;
    if constexpr (param_leaf<U>) {
        f(part, full);
    } else if constexpr (is_std_array_v<U>) {
        for (std::size_t i = 0; i < part.size(); ++i)
            for_each_leaf_named_in(part[i], full[first_index_v<U> + i], f);
    } else {
        hana::for_each(hana::accessors<U>(), [&](auto acc) {
            for_each_leaf_named_in(hana::second(acc)(part), hana::at_key(full, hana::first(acc)),
                                   f);
        });
    }
}
// dst ← src, one leaf
template <class Src, class Dst>
constexpr void copy_leaf(const Src& src, Dst& dst) noexcept {
    for (std::size_t i = 0; i < leaf_elements<Dst>; ++i)
        dst.data()[i] = src.data()[i];
}
}  // namespace detail

inline namespace typed {

// The trainable leaves start from the base's values (gains/biases, last k; all: a copy of θ).
template <class T, class cfg, class Tr>
    requires trainable_of_model<Tr, DTransformer<T, cfg>> &&
        (!is_lora<selection_of<Tr>>)constexpr void trainable_from(const DTransformer<T, cfg>& base,
                                                                  Tr& tr) noexcept {
        detail::for_each_leaf_named_in(tr, base,
                                       [](auto& t, const auto& b) { detail::copy_leaf(b, t); });
    }

    // A ~ U(−1/√in, 1/√in) per adapter (PEFT's kaiming_uniform_(a=√5)), B = 0: ΔW = 0 at the start.
    // In float arithmetic (prng::uniform01<float>), so a microcontroller links no double code.
    // Deterministic: each A draws from prng::stream_for(seed, its name).
    template <class Adapters>
        requires lora_part<Adapters>
    void init_lora(Adapters& ad, std::uint64_t seed) noexcept {
        for_each_param(ad, [&](const param_name& name, auto& p) {
            using Leaf = std::remove_cvref_t<decltype(p)>;
            using T = typename Leaf::value_type;
            constexpr std::size_t n = leaf_elements<Leaf>;
            if (name.leaf() == "B") {
                for (std::size_t i = 0; i < n; ++i)
                    p.data()[i] = T(0);
                return;
            }
            const float bound = 1.0f / std::sqrt(static_cast<float>(Leaf::cols_dim::size));
            auto gen = prng::stream_for(seed, name.view());
            for (std::size_t k = 0; k < n; ++k)
                p.data()[file_to_storage_index<Leaf>(k)] =
                    static_cast<T>(bound * (2.0f * prng::uniform01<float>(gen) - 1.0f));
        });
    }

    // model ← the model with the trainable leaves of tr (gains/biases, last k, all: copies them in;
    // LoRA: W ← W + (α/r)·B·A for each adapter, merging it). For export (io::export_header) or for
    // inference with the plain model.
    template <class T, class cfg, class Tr>
        requires trainable_of_model<Tr, DTransformer<T, cfg>>
    void apply_trainable(const Tr& tr, DTransformer<T, cfg>& model) noexcept {
        using S = selection_of<Tr>;
        if constexpr (is_lora<S>) {
            constexpr T s = lora_scale<T, S>;
            auto merge = [s](const auto& ad, auto& W) {
                if constexpr (is_adapter<std::remove_cvref_t<decltype(ad)>>) {
                    // W += s·B·A, as a product into W: (out, r)·(r, in)
                    mat<T, typename std::remove_cvref_t<decltype(ad)>::out_dim, lora_r<S::rank>>
                        sB{};
                    copy(ad.B, sB);
                    scale(sB, s);
                    matmul_add(sB, ad.A, W);
                }
            };
            for (std::size_t l = 0; l < DTransformer<T, cfg>::L; ++l) {
                const auto& a = tr.layers[l];
                auto& p = model.layers[l];
                merge(a.attn.W_q, p.attn.W_q);
                merge(a.attn.W_k, p.attn.W_k);
                merge(a.attn.W_v, p.attn.W_v);
                merge(a.attn.W_o, p.attn.W_o);
                merge(a.mlp.W_1, p.mlp.W_1);
                merge(a.mlp.W_2, p.mlp.W_2);
            }
        } else {
            detail::for_each_leaf_named_in(tr, model,
                                           [](const auto& t, auto& m) { detail::copy_leaf(t, m); });
        }
    }

}  // namespace typed

// ---- a call of no form above: a part of another model, or adapters (shape_error.hpp) ----

namespace detail {
// The part belongs to the model; LoRA's adapters start from init_lora, not from the base.
template <class M, class Part>
constexpr auto part_error() {
    using P = bare_t<Part>;
    if constexpr (is_trainable_part<P> && std::is_same_v<typename P::model_type, M> &&
                  is_lora<selection_of<P>>)
        return what<part_trains<selection_of<P>>, needed<init_lora_instead>>{};
    else
        return or_arguments<Part>(first_error(what<>{}, check_belongs<M, Part>()));
}
template <class... A>
concept trainable_from_accepts = requires(A&&... a) {
    typed::trainable_from(static_cast<A&&>(a)...);
};
template <class... A>
concept apply_trainable_accepts = requires(A&&... a) {
    typed::apply_trainable(static_cast<A&&>(a)...);
};
}  // namespace detail

// init_lora of what holds no adapters (the model: train_all; gains and biases; the last layers).
template <class P>
    requires(!lora_part<P>)
auto init_lora(P& part, std::uint64_t seed) -> decltype(detail::shape_error_of<in::init_lora>(
    detail::what<part_trains<selection_of<P>>, needed<lora_part_of_model>>{}));

template <class Model, class Part>
    requires(detail::architecture<Model> && !detail::trainable_from_accepts<const Model&, Part&>)
auto trainable_from(const Model& base, Part& tr)
    -> decltype(detail::shape_error_of<in::trainable_from>(detail::part_error<Model, Part&>()));
template <class Part, class Model>
    requires(detail::architecture<Model> && !detail::apply_trainable_accepts<const Part&, Model&>)
auto apply_trainable(const Part& tr, Model& model)
    -> decltype(detail::shape_error_of<in::apply_trainable>(
        detail::part_error<Model, const Part&>()));

}  // namespace typeformer
