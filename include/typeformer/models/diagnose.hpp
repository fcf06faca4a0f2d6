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

// A layer's forward(p, X, ...) or backward(p, X, ...) (gpt_layer, encoder_layer, decoder_layer,
// final_projection), which take views: X is a (D, C) view of the layer's T, D what Role's
// weight multiplies (W_q's columns: d_e); else the arguments as given.
template <class T, class D, class Role, class... A>
constexpr auto layer_error() {
    if constexpr (sizeof...(A) == 0) {
        return what<arguments<>>{};
    } else {
        using X = arg_ref_t<0, A...>;
        return or_arguments<A...>(
            first_error(check_matrix<role::X, X>(),
                        check_rows<role::X, X, D, typename Role::template cols<D>>(),
                        check_scalar<role::X, X, T, typename Role::template scalar<T>>()));
    }
}

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
