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

// An architecture: DTransformer, ETransformer, EDTransformer (a model, or its gradient).
template <class X>
concept architecture = requires {
    X::sequences;
    typename X::traits;
    typename X::value_type;
};

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

template <class G, class M>
constexpr auto first_difference_between() {
    using TG = typename G::traits;
    using TM = typename M::traits;
    auto differ = []<class A, class B>(std::type_identity<A>, std::type_identity<B>) {
        if constexpr (std::is_same_v<A, B>)
            return what<>{};
        else
            return what<first_difference<A, B>>{};
    };
    using std::type_identity;
    return first_error(
        differ(type_identity<typename G::value_type>{}, type_identity<typename M::value_type>{}),
        differ(type_identity<typename TG::N_V>{}, type_identity<typename TM::N_V>{}),
        differ(type_identity<typename TG::l_max>{}, type_identity<typename TM::l_max>{}),
        differ(type_identity<typename TG::d_e>{}, type_identity<typename TM::d_e>{}),
        differ(type_identity<typename TG::H>{}, type_identity<typename TM::H>{}),
        differ(type_identity<typename TG::d_attn>{}, type_identity<typename TM::d_attn>{}),
        differ(type_identity<typename TG::d_mid>{}, type_identity<typename TM::d_mid>{}),
        differ(type_identity<typename TG::d_mlp>{}, type_identity<typename TM::d_mlp>{}),
        differ(type_identity<typeformer::L<TG::L>>{}, type_identity<typeformer::L<TM::L>>{}),
        differ(type_identity<typename TG::d_f>{}, type_identity<typename TM::d_f>{}));
}

// what<R...> followed by the parts of w.
template <class... R, class... W>
constexpr auto followed_by(what<W...>) {
    return what<R..., W...>{};
}

// G, given where the model M (or its gradient) is needed, is M; Role names what G was given as.
template <template <class> class Role, class G, class M>
constexpr auto check_same_model() {
    if constexpr (std::is_same_v<G, M>)
        return what<>{};
    else if constexpr (architecture<G> && architecture<M>)
        return followed_by<Role<G>, model<M>>(first_difference_between<G, M>());
    else
        return what<Role<G>, model<M>>{};
}

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
