// What a mis-shaped call of a model's function reports (shape_error.hpp): an argument that
// belongs to another model (a gradient, workspace, KV cache, optimiser or training state, an
// encoded context Z), or a typed sequence of another vocabulary.
//
//   shape_error<in::loss_and_grad, grads<ETransformer<float, cfg>>, model<DTransformer<float, cfg>>>
//   shape_error<in::sgd_step, grads<DTransformer<float, small>>, model<DTransformer<float, tiny>>,
//               first_difference<d_e<64>, d_e<32>>>
//   shape_error<in::forward, tokens_of<N_V<259>>, model_N_V<N_V<99>>>
//
// When the two models are the same architecture, first_difference names the first dimension in
// which they differ, by its own name.
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "../shape_error.hpp"

#include "../dim.hpp"
#include "../kernels/diagnose.hpp"
#include "../token.hpp"
#include "workspace.hpp"

namespace typeformer::detail {

// The model an argument belongs to, and the role it has in an error (workspace_of<Model>, ...):
// specialised next to each type that belongs to a model.
template <class X>
struct belongs_to {};
template <architecture X>
struct belongs_to<X> {
    using model = X;
    template <class M>
    using role = grads<M>;
};
template <class Model, workspace_kind K>
struct belongs_to<workspace<Model, K>> {
    using model = Model;
    template <class M>
    using role = workspace_of<M>;
};

// An argument that belongs to a model belongs to M (the model the call is about).
template <class M, class X>
constexpr auto check_belongs() {
    using B = belongs_to<bare_t<X>>;
    if constexpr (!requires { typename B::model; })
        return what<>{};
    else
        return check_same_model<B::template role, typename B::model, M>();
}

// A typed sequence (or a dataset of them) has the model's vocabulary.
template <class M, class X>
constexpr auto check_vocabulary() {
    using V = typename M::traits::N_V;
    if constexpr (typed_token_sequence<X>) {
        using W = typename bare_t<X>::vocabulary;
        if constexpr (!std::is_same_v<W, V>)
            return what<tokens_of<W>, model_N_V<V>>{};
        else
            return what<>{};
    } else if constexpr (requires {
                             typename bare_t<X>::first_type;
                             typename bare_t<X>::second_type;
                         }) {
        return first_error(check_vocabulary<M, typename bare_t<X>::first_type>(),
                           check_vocabulary<M, typename bare_t<X>::second_type>());  // (z, x)
    } else if constexpr (requires(const bare_t<X>& p) {
                             p.z;
                             p.x;
                         }) {
        return first_error(check_vocabulary<M, decltype(std::declval<const bare_t<X>&>().z)>(),
                           check_vocabulary<M, decltype(std::declval<const bare_t<X>&>().x)>());
    } else if constexpr (requires { typename bare_t<X>::value_type; }) {
        using E = typename bare_t<X>::value_type;  // a dataset's sequences
        if constexpr (std::is_same_v<bare_t<E>, bare_t<X>>)
            return what<>{};
        else
            return check_vocabulary<M, E>();
    } else {
        return what<>{};
    }
}

// An algorithm of one architecture (Arch: DTransformer, ETransformer, EDTransformer) given a
// model of another: the model, and the model of the same config that it takes. (An int8 model is
// its float model's architecture.)
template <template <class, class> class Arch, class M>
struct architecture_check {
    using what = detail::what<model<M>>;
};
template <template <class, class> class Arch, template <class, class> class Given, class T,
          class cfg>
struct architecture_check<Arch, Given<T, cfg>> {
    using what = detail::what<model<Given<T, cfg>>, needed<Arch<T, cfg>>>;
};
template <template <class, class> class Arch, class T, class cfg>
struct architecture_check<Arch, Arch<T, cfg>> {
    using what = detail::what<>;
};
template <template <class, class> class Arch, class M>
constexpr auto check_architecture() {
    if constexpr (requires { typename M::float_model; })
        return typename architecture_check<Arch, typename M::float_model>::what{};
    else
        return typename architecture_check<Arch, M>::what{};
}

// X, passed where the tokens of a sequence go, is not something of a model's (an encoded
// context Z where EDInference takes the tokens z, a workspace or cache out of order).
template <class M, class X>
constexpr auto check_tokens() {
    using B = belongs_to<bare_t<X>>;
    if constexpr (requires { typename B::model; })
        return what<typename B::template role<typename B::model>,
                    needed<tokens_of<typename M::traits::N_V>>>{};
    else
        return what<>{};
}

// The parameters of a layer's forward or backward (gpt_layer, encoder_layer, decoder_layer,
// final_projection), each checked against the argument in its place (layer_error):
// a view V, mat_view<const T, D, C> read or mat_view<T, D, C> written, in the role Role; rows
// other than D are named against Rows (W_q_cols<d_e<32>>: the weight that reads them), columns
// other than C against Cols (X_cols<l_x<8>>: the sequence it runs over; void: its own).
template <class Role, class V, class Rows, class Cols = void>
struct view_param {};
// an activations, cache or scratch: one of Accepted (the first is what is named);
template <class... Accepted>
struct state_param {};
// the layer's gradient, of its own type; a scalar (ε) is not checked.
template <class Layer>
struct grads_param {};
struct scalar_param {};

template <class A, class WRole, class Role, class V, class Rows, class Cols>
constexpr auto check_param(std::type_identity<view_param<Role, V, Rows, Cols>>) {
    using T = typename V::value_type;
    auto cols = [] {
        if constexpr (std::is_void_v<Cols>)
            return what<>{};
        else
            return check_cols<Role, A, typename V::cols_dim, Cols>();
    };
    auto write = [] {
        if constexpr (writable<kernels::detail::element_of<V>>)
            return check_writable<Role, A>();
        else
            return what<>{};
    };
    auto view = [] {  // an owning matrix, or a view of T where a view of const T goes
        if constexpr (std::is_same_v<bare_t<A>, V>)
            return what<>{};
        else
            return what<typename Role::template is<bare_t<A>>, needed<V>>{};
    };
    return first_error(check_matrix<Role, A>(), check_rows<Role, A, typename V::rows_dim, Rows>(),
                       cols(), check_scalar<Role, A, T, typename WRole::template scalar<T>>(),
                       write(), view());
}
template <class A, class WRole, class First, class... More>
constexpr auto check_param(std::type_identity<state_param<First, More...>>) {
    if constexpr (std::is_same_v<bare_t<A>, First> || (std::is_same_v<bare_t<A>, More> || ...))
        return what<>{};
    else
        return what<cache_given<bare_t<A>>, cache_expected<First>>{};
}
template <class A, class WRole, class Layer>
constexpr auto check_param(std::type_identity<grads_param<Layer>>) {
    if constexpr (std::is_same_v<bare_t<A>, Layer>)
        return what<>{};
    else
        return what<grads<bare_t<A>>, block<Layer>>{};
}
template <class A, class WRole>
constexpr auto check_param(std::type_identity<scalar_param>) {
    return what<>{};
}

// The arguments A... against the parameters Params (a std::tuple of the *_param above), in order;
// then their number.
template <class WRole, class Params, class... A, std::size_t... I>
constexpr auto params_error(std::index_sequence<I...>) {
    return or_arguments<A...>(
        first_error(what<>{}, check_param<arg_ref_t<I, A...>, WRole>(
                                  std::type_identity<std::tuple_element_t<I, Params>>{})...));
}
template <class WRole, class Params, class... A>
constexpr auto params_error() {
    constexpr std::size_t n = std::tuple_size_v<Params>;
    return params_error<WRole, Params, A...>(
        std::make_index_sequence<(sizeof...(A) < n ? sizeof...(A) : n)>{});
}

// A layer's forward(p, args...) or backward(p, args...) that fits no form: the first argument
// that disagrees with Sig's parameters, else the arguments as given. Sig::template params<Lx>
// (params<Lx, Lz> when Sig::sequences is 2: a decoder layer) is the std::tuple of the *_param
// above for the sequences the call runs over, X's columns (and Z's, the second argument's); WRole
// names the layer's weight, whose scalar type the views have.
template <class WRole, class Sig, class... A>
constexpr auto layer_error() {
    if constexpr (sizeof...(A) < Sig::sequences) {
        return what<arguments<bare_t<A>...>>{};
    } else {
        using X = arg_ref_t<0, A...>;
        if constexpr (!diagnosable_matrix<X>) {
            return check_matrix<role::X, X>();
        } else if constexpr (Sig::sequences == 1) {
            using Params = typename Sig::template params<typename bare_t<X>::cols_dim>;
            return params_error<WRole, Params, A...>();
        } else {
            using Z = arg_ref_t<1, A...>;
            if constexpr (!diagnosable_matrix<Z>) {
                return check_matrix<role::Z, Z>();
            } else {
                using Params = typename Sig::template params<typename bare_t<X>::cols_dim,
                                                             typename bare_t<Z>::cols_dim>;
                return params_error<WRole, Params, A...>();
            }
        }
    }
}

// forward(p, X, X_out, a, eps) and backward(p, X, a, dX, g, s) of a layer over one stream
// (gpt_layer, encoder_layer), whose activations and scratch are made for X's columns Lx.
template <class T, class Layer>
struct stream_layer_forward {
    using D = typename Layer::d_e;
    static constexpr std::size_t sequences = 1;
    template <class Lx>
    using params =
        std::tuple<view_param<role::X, mat_view<const T, D, Lx>, W_q_cols<D>>,
                   view_param<role::X_out, mat_view<T, D, Lx>, X_rows<D>, X_cols<Lx>>,
                   state_param<typename Layer::template activations<Lx>,
                               typename Layer::template activations<Lx, workspace_kind::inference>>,
                   scalar_param>;
};
template <class T, class Layer>
struct stream_layer_backward {
    using D = typename Layer::d_e;
    static constexpr std::size_t sequences = 1;
    template <class Lx>
    using params =
        std::tuple<view_param<role::X, mat_view<const T, D, Lx>, W_q_cols<D>>,
                   state_param<typename Layer::template activations<Lx>>,
                   view_param<role::dX, mat_view<T, D, Lx>, X_rows<D>, X_cols<Lx>>,
                   grads_param<Layer>, state_param<typename Layer::template scratch<Lx>>>;
};

// The call f(model, args...) fits no form of f: the first argument of another model or vocabulary,
// or else the arguments as given.
template <class M, class... A>
constexpr auto model_call_error() {
    if constexpr (architecture<M>)
        return or_arguments<A...>(
            first_error(what<>{}, first_error(check_belongs<M, A>(), check_vocabulary<M, A>())...));
    else
        return or_arguments<A...>(first_error(what<>{}, check_belongs<M, A>()...));
}

}  // namespace typeformer::detail

// The declared-only form of a function f whose accepted forms are typed::f(model, args...)
// (shape_error.hpp): a call with a model first that none of them takes ends here, and the
// diagnosis, a constexpr call over Model and A... (the arguments as passed), names what
// disagrees. Used at namespace typeformer scope, after the accepted forms.
#define TYPEFORMER_MODEL_FALLBACK(f, where, ...)                                          \
    namespace detail {                                                                    \
    template <class... A>                                                                 \
    concept f##_accepts = requires(A && ... a) {                                          \
        typed::f(static_cast<A&&>(a)...);                                                 \
    };                                                                                    \
    }                                                                                     \
    template <class Model, class... A>                                                    \
        requires(detail::architecture<Model> && !detail::f##_accepts<const Model&, A...>) \
    auto f(const Model& model, A&&... args)->decltype(detail::shape_error_of<where>(__VA_ARGS__))
