// The checks a mis-shaped call's diagnosis is made of (shape_error.hpp).
//
// Each check looks at one argument type (as the call passed it: const, a reference, a view) and
// returns detail::what<> when it holds, or what<...> naming the argument's role and dimension and
// what it should have matched. A diagnosis runs its checks in the order of the algorithm's lines
// and reports the first that fails (detail::first_error). Every check is safe on any type: one
// that does not apply (rows of something that is not a tensor) holds, and an earlier check of the
// same diagnosis reports the real problem. The checks of two models' identity (architecture,
// first_difference, check_same_model) are here too: the walks over parameters (params.hpp) use
// them as well as the models' functions (models/diagnose.hpp).
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>

#include "../shape_error.hpp"
#include "../tensor.hpp"
#include "common.hpp"

namespace typeformer::detail {

template <class X>
using bare_t = std::remove_cvref_t<X>;

// Argument I of a call's pack, without const or reference.
template <std::size_t I, class... A>
using arg_t = bare_t<std::tuple_element_t<I, std::tuple<A...>>>;
// ... and as the call passed it (for writability).
template <std::size_t I, class... A>
using arg_ref_t = std::tuple_element_t<I, std::tuple<A...>>;

template <class X>
concept diagnosable_matrix = matrix<bare_t<X>>;
template <class X>
concept diagnosable_vector = vector<bare_t<X>>;
template <class X>
concept diagnosable_tensor = diagnosable_matrix<X> || diagnosable_vector<X>;

// A matrix's rows, or a vector's dimension.
template <class X>
struct rows_of_impl {
    using type = typename X::dim_type;
};
template <diagnosable_matrix X>
struct rows_of_impl<X> {
    using type = typename X::rows_dim;
};
template <class X>
using diag_rows_t = typename rows_of_impl<bare_t<X>>::type;

// X is a matrix (or a view of one); transpose(M) only if AllowTransposed.
template <class Role, class X, bool AllowTransposed = false>
constexpr auto check_matrix() {
    if constexpr (!diagnosable_matrix<X> ||
                  (!AllowTransposed && kernels::detail::is_transposed_v<bare_t<X>>))
        return what<typename Role::template not_a_matrix<bare_t<X>>>{};
    else
        return what<>{};
}

// X is a vector (or a view of one).
template <class Role, class X>
constexpr auto check_vector() {
    if constexpr (!diagnosable_vector<X>)
        return what<typename Role::template not_a_vector<bare_t<X>>>{};
    else
        return what<>{};
}

// X's rows (a vector's dimension) are D, the dimension Expected names.
template <class Role, class X, class D, class Expected>
constexpr auto check_rows() {
    if constexpr (!diagnosable_tensor<X>)
        return what<>{};
    else if constexpr (!std::is_same_v<diag_rows_t<X>, D>)
        return what<typename Role::template rows<diag_rows_t<X>>, Expected>{};
    else
        return what<>{};
}

// X's columns are D, the dimension Expected names.
template <class Role, class X, class D, class Expected>
constexpr auto check_cols() {
    if constexpr (!diagnosable_matrix<X>)
        return what<>{};
    else if constexpr (!std::is_same_v<typename bare_t<X>::cols_dim, D>)
        return what<typename Role::template cols<typename bare_t<X>::cols_dim>, Expected>{};
    else
        return what<>{};
}

// Y's rows are X's rows (elementwise operands, a result and its operand).
template <class RoleY, class Y, class RoleX, class X>
constexpr auto check_same_rows() {
    if constexpr (!diagnosable_tensor<Y> || !diagnosable_tensor<X>)
        return what<>{};
    else
        return check_rows<RoleY, Y, diag_rows_t<X>,
                          typename RoleX::template rows<diag_rows_t<X>>>();
}

// Y's columns are X's columns (both run over the same sequence).
template <class RoleY, class Y, class RoleX, class X>
constexpr auto check_same_cols() {
    if constexpr (!diagnosable_matrix<Y> || !diagnosable_matrix<X>)
        return what<>{};
    else
        return check_cols<RoleY, Y, typename bare_t<X>::cols_dim,
                          typename RoleX::template cols<typename bare_t<X>::cols_dim>>();
}

// Y has X's shape: rows, then columns (a vector has no columns).
template <class RoleY, class Y, class RoleX, class X>
constexpr auto check_same_shape() {
    if constexpr (diagnosable_matrix<Y> != diagnosable_matrix<X> && diagnosable_tensor<Y> &&
                  diagnosable_tensor<X>)
        return what<typename RoleY::template not_a_matrix<bare_t<Y>>,
                    typename RoleX::template rows<diag_rows_t<X>>>{};
    else
        return first_error(check_same_rows<RoleY, Y, RoleX, X>(),
                           check_same_cols<RoleY, Y, RoleX, X>());
}

// X's scalar type is T (float with float, double with double); Expected names whose T it is.
template <class Role, class X, class T, class Expected>
constexpr auto check_scalar() {
    if constexpr (!diagnosable_tensor<X>)
        return what<>{};
    else if constexpr (!std::is_same_v<kernels::detail::value_of<X>, T>)
        return what<typename Role::template scalar<kernels::detail::value_of<X>>, Expected>{};
    else
        return what<>{};
}

// Y's scalar type is X's.
template <class RoleY, class Y, class RoleX, class X>
constexpr auto check_same_scalar() {
    if constexpr (!diagnosable_tensor<Y> || !diagnosable_tensor<X>)
        return what<>{};
    else
        return check_scalar<RoleY, Y, kernels::detail::value_of<X>,
                            typename RoleX::template scalar<kernels::detail::value_of<X>>>();
}

// An output can be written: not a const tensor, not a view of const. XRef: as the call passed it.
template <class Role, class XRef>
constexpr auto check_writable() {
    if constexpr (!diagnosable_tensor<XRef> || kernels::detail::is_transposed_v<bare_t<XRef>>)
        return what<>{};
    else if constexpr (!writable<kernels::detail::element_of<XRef>>)
        return what<typename Role::template read_only<bare_t<XRef>>>{};
    else
        return what<>{};
}

// An architecture: DTransformer, ETransformer, EDTransformer (a model, or its gradient).
template <class X>
concept architecture = requires {
    X::sequences;
    typename X::traits;
    typename X::value_type;
};

// The first dimension (or the scalar type) in which two models G and M of one architecture differ.
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

// Every check held, yet no form takes the call: its arguments' number or kind is wrong.
template <class... A, class... W>
constexpr auto or_arguments(what<W...> w) {
    if constexpr (sizeof...(W) == 0)
        return what<arguments<bare_t<A>...>>{};
    else
        return w;
}

}  // namespace typeformer::detail
