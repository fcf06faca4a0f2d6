// Algorithm 7: unembedding, p = softmax(W_u e), for every column of X at once; and the tied
// variant W_u = W_eᵀ that §5 mentions ("sometimes the unembedding matrix is instead fixed to be
// the transpose of the embedding matrix").
//
//   X, dX           (d_e, C)     C a sequence length such as l_x<256>
//   W_u             (N_V, d_e)   unembedding<T, V, E>
//   W_e             (d_e, N_V)   the token_embedding's matrix, for tied_unembedding<T, V, E>
//   logits, dlogits (N_V, C)     logits = W_u X
//   P               (N_V, C)     P[:, t] = softmax(logits[:, t]), a distribution over the vocabulary
//
//   forward(u, X, logits)               logits = W_u X          (the losses start from logits)
//   probabilities(u, X, P)              P = softmax(W_u X)      (Algorithm 7 itself)
//   backward(u, X, dlogits, dX, grads)  dW_u += dlogits·Xᵀ, dX += W_uᵀ·dlogits
// The tied forms take the token_embedding after the tied_unembedding, and put their gradient
// into the token_embedding's gradient:  dW_e += X·dlogitsᵀ.
#pragma once

#include <boost/hana/define_struct.hpp>

#include "../shape_error.hpp"  // first: an error's note then names only this include

#include "../kernels.hpp"
#include "../tensor.hpp"
#include "embedding.hpp"
#include "gradient.hpp"
#include "operands.hpp"

namespace typeformer::nn {

template <class T, fixed_dimension V, fixed_dimension E>
struct unembedding {
    using W_u_type = mat<T, V, E>;  // (N_V, d_e)
    BOOST_HANA_DEFINE_STRUCT(unembedding, (W_u_type, W_u));
    static constexpr bool flatten_params = true;  // W_u
};

// W_u = W_eᵀ: no parameter of its own (a Hana struct with no members), so a model holding it
// saves, counts and trains no W_u; its gradient lands in the token embedding's W_e.
template <class T, fixed_dimension V, fixed_dimension E>
struct tied_unembedding {
    BOOST_HANA_DEFINE_STRUCT(tied_unembedding);
};

// X (E, C) in, logits (V, C) out, same scalar type.
template <class T, class V, class E, class Xt, class Lt>
concept unembedding_operands =
    matrix_operand<Xt> && matrix_operand<Lt> && rows_are<detail::rows_of<Xt>, E> &&
    rows_are<detail::rows_of<Lt>, V> && same_columns<detail::cols_of<Lt>, detail::cols_of<Xt>> &&
    same_value_type<detail::value_of<Xt>, T> && same_value_type<detail::value_of<Lt>, T>;

namespace detail {
// logits = W_u X: dX += W_uᵀ·dlogits, then dW_u (dlogits·Xᵀ) to the sink g; dlogits is scratch
// afterwards (an in-place sink scales it).
template <class P, class Xv, class DLv, class DXv, class G>
void unembedding_backward(const P& p, const Xv& X, const DLv& dlogits, const DXv& dX,
                          const G& g) noexcept {
    projection_backward(p.W_u, leaf::W_u, nullptr, 0, p.W_u.rows(), X, dlogits, dX, g);
}
// logits = W_eᵀ X (tied): dX += W_e·dlogits, then dW_e (X·dlogitsᵀ) to the sink of the token
// embedding; dlogits is scratch afterwards.
template <class Te, class Xv, class DLv, class DXv, class G>
void tied_unembedding_backward(const Te& te, const Xv& X, const DLv& dlogits, const DXv& dX,
                               const G& g) noexcept {
    matmul_add(te.W_e, dlogits, dX);
    g.update(leaf::W_e, [&](auto dW, auto a) {
        scale_scratch(dlogits, a);
        matmul_add(X, transpose(dlogits), dW);
    });
}
}  // namespace detail

inline namespace typed {

// ---- Algorithm 7 ----

// logits = W_u X
template <class T, class V, class E, class Xt, class Lt>
    requires unembedding_operands<T, V, E, Xt, Lt> && writable<detail::element_of<Lt>>
constexpr void forward(const unembedding<T, V, E>& p, const Xt& X, Lt&& logits) noexcept {
    matmul(p.W_u, X, logits);  // W_u e
}

// 1: P = softmax(W_u X), column by column
template <class T, class V, class E, class Xt, class Pt>
    requires unembedding_operands<T, V, E, Xt, Pt> && writable<detail::element_of<Pt>>
void probabilities(const unembedding<T, V, E>& p, const Xt& X, Pt&& P) noexcept {
    matmul(p.W_u, X, P);                             // W_u e
    softmax_columns(P, T(1), mask_bidirectional{});  // softmax(·)
}

// dW_u += dlogits·Xᵀ,  dX += W_uᵀ·dlogits
template <class T, class V, class E, class Xt, class DLt, class DXt>
    requires unembedding_operands<T, V, E, Xt, DLt> && matrix_operand<DXt> &&
        rows_are<detail::rows_of<DXt>, E> &&
        same_columns<detail::cols_of<DXt>, detail::cols_of<Xt>> &&
        same_value_type<detail::value_of<DXt>, T> && writable<detail::element_of<DXt>>
void backward(const unembedding<T, V, E>& p, const Xt& X, const DLt& dlogits, DXt&& dX,
              unembedding<T, V, E>& grads) noexcept {
    detail::unembedding_backward(p, as_view(X), as_view(dlogits), as_view(dX),
                                 detail::accumulate_into<unembedding<T, V, E>, T>(grads));
}

// ---- tied: W_u = W_eᵀ ----

// logits = W_eᵀ X
template <class T, class V, class E, class Xt, class Lt>
    requires unembedding_operands<T, V, E, Xt, Lt> && writable<detail::element_of<Lt>>
constexpr void forward(const tied_unembedding<T, V, E>&, const token_embedding<T, E, V>& te,
                       const Xt& X, Lt&& logits) noexcept {
    matmul(transpose(te.W_e), X, logits);  // W_u e with W_u = W_eᵀ
}

// P = softmax(W_eᵀ X)
template <class T, class V, class E, class Xt, class Pt>
    requires unembedding_operands<T, V, E, Xt, Pt> && writable<detail::element_of<Pt>>
void probabilities(const tied_unembedding<T, V, E>&, const token_embedding<T, E, V>& te,
                   const Xt& X, Pt&& P) noexcept {
    matmul(transpose(te.W_e), X, P);
    softmax_columns(P, T(1), mask_bidirectional{});
}

// dW_e += X·dlogitsᵀ (into the token embedding's gradient),  dX += W_e·dlogits
template <class T, class V, class E, class Xt, class DLt, class DXt>
    requires unembedding_operands<T, V, E, Xt, DLt> && matrix_operand<DXt> &&
        rows_are<detail::rows_of<DXt>, E> &&
        same_columns<detail::cols_of<DXt>, detail::cols_of<Xt>> &&
        same_value_type<detail::value_of<DXt>, T> && writable<detail::element_of<DXt>>
void backward(const tied_unembedding<T, V, E>&, const token_embedding<T, E, V>& te, const Xt& X,
              const DLt& dlogits, DXt&& dX, token_embedding<T, E, V>& te_grads) noexcept {
    detail::tied_unembedding_backward(
        te, as_view(X), as_view(dlogits), as_view(dX),
        detail::accumulate_into<token_embedding<T, E, V>, T>(te_grads));
}

}  // namespace typed

// ---- a mis-shaped call: one error naming both dimensions (shape_error.hpp) ----

namespace detail {

// Algorithm 7's operands X (E, C) and the output (V, C): ExpectX and ExpectOut name the parameter
// whose dimensions they must have (W_u's columns and rows; tied, W_e's rows and columns).
template <class T, class V, class E, class RoleOut, class ExpectX, class ExpectOut, class ExpectT,
          class X, class Out>
constexpr auto unembedding_checks() {
    return first_error(check_matrix<role::X, X>(), check_rows<role::X, X, E, ExpectX>(),
                       check_matrix<RoleOut, Out>(), check_rows<RoleOut, Out, V, ExpectOut>(),
                       check_same_cols<RoleOut, Out, role::X, X>(),
                       check_scalar<role::X, X, T, ExpectT>(),
                       check_scalar<RoleOut, Out, T, ExpectT>());
}

// forward(u, X, logits), probabilities(u, X, P).
template <class T, class V, class E, class RoleOut, class ExpectX, class ExpectOut, class ExpectT,
          class... A>
constexpr auto unembedding_forward_error() {
    if constexpr (sizeof...(A) != 2) {
        return what<arguments<bare_t<A>...>>{};
    } else {
        using Out = arg_ref_t<1, A...>;
        return or_arguments<A...>(
            first_error(unembedding_checks<T, V, E, RoleOut, ExpectX, ExpectOut, ExpectT,
                                           arg_ref_t<0, A...>, Out>(),
                        check_writable<RoleOut, Out>()));
    }
}

// backward(u, X, dlogits, dX, grads): dX as X.
template <class T, class V, class E, class ExpectX, class ExpectOut, class ExpectT, class Grads,
          class... A>
constexpr auto unembedding_backward_error() {
    if constexpr (sizeof...(A) != 4) {
        return what<arguments<bare_t<A>...>>{};
    } else {
        using X = arg_ref_t<0, A...>;
        using DX = arg_ref_t<2, A...>;
        return or_arguments<A...>(
            first_error(unembedding_checks<T, V, E, role::dlogits, ExpectX, ExpectOut, ExpectT, X,
                                           arg_ref_t<1, A...>>(),
                        check_matrix<role::dX, DX>(), check_same_shape<role::dX, DX, role::X, X>(),
                        check_scalar<role::dX, DX, T, ExpectT>(), check_writable<role::dX, DX>(),
                        check_grads<arg_t<3, A...>, Grads>()));
    }
}

// The tied forms take the token embedding first: it must be W_e (d_e, N_V) of the same E, V.
template <class Expected, class... A>
constexpr auto tied_embedding_error() {
    if constexpr (sizeof...(A) == 0)
        return what<arguments<>>{};
    else if constexpr (!std::is_same_v<arg_t<0, A...>, Expected>)
        return what<block<arg_t<0, A...>>, block<Expected>>{};
    else
        return what<>{};
}
}  // namespace detail

template <class T, class V, class E, class... A>
    requires(!requires(const unembedding<T, V, E>& p, A&&... a) {
        typed::forward(p, static_cast<A&&>(a)...);
    })
auto forward(const unembedding<T, V, E>& p, A&&... args) noexcept
    -> decltype(typeformer::detail::shape_error_of<in::Algorithm_7_unembedding>(
        detail::unembedding_forward_error<T, V, E, role::logits, W_u_cols<E>, W_u_rows<V>,
                                          W_u_scalar<T>, A...>()));
template <class T, class V, class E, class... A>
    requires(!requires(const unembedding<T, V, E>& p, A&&... a) {
        typed::probabilities(p, static_cast<A&&>(a)...);
    })
auto probabilities(const unembedding<T, V, E>& p, A&&... args) noexcept
    -> decltype(typeformer::detail::shape_error_of<in::Algorithm_7_probabilities>(
        detail::unembedding_forward_error<T, V, E, role::P, W_u_cols<E>, W_u_rows<V>, W_u_scalar<T>,
                                          A...>()));
template <class T, class V, class E, class... A>
    requires(!requires(const unembedding<T, V, E>& p, A&&... a) {
        typed::backward(p, static_cast<A&&>(a)...);
    })
auto backward(const unembedding<T, V, E>& p, A&&... args) noexcept
    -> decltype(typeformer::detail::shape_error_of<in::Algorithm_7_unembedding_backward>(
        detail::unembedding_backward_error<T, V, E, W_u_cols<E>, W_u_rows<V>, W_u_scalar<T>,
                                           unembedding<T, V, E>, A...>()));

// tied: W_u = W_eᵀ, so X's rows must be W_e's rows and the logits' rows W_e's columns
template <class T, class V, class E, class Te, class... A>
    requires(!requires(const tied_unembedding<T, V, E>& p, const Te& te, A&&... a) {
        typed::forward(p, te, static_cast<A&&>(a)...);
    })
auto forward(const tied_unembedding<T, V, E>& p, const Te& te, A&&... args) noexcept
    -> decltype(typeformer::detail::shape_error_of<in::Algorithm_7_unembedding>(
        typeformer::detail::first_error(
            detail::tied_embedding_error<token_embedding<T, E, V>, Te>(),
            detail::unembedding_forward_error<T, V, E, role::logits, W_e_rows<E>, W_e_cols<V>,
                                              W_e_scalar<T>, A...>())));
template <class T, class V, class E, class Te, class... A>
    requires(!requires(const tied_unembedding<T, V, E>& p, const Te& te, A&&... a) {
        typed::probabilities(p, te, static_cast<A&&>(a)...);
    })
auto probabilities(const tied_unembedding<T, V, E>& p, const Te& te, A&&... args) noexcept
    -> decltype(typeformer::detail::shape_error_of<in::Algorithm_7_probabilities>(
        typeformer::detail::first_error(
            detail::tied_embedding_error<token_embedding<T, E, V>, Te>(),
            detail::unembedding_forward_error<T, V, E, role::P, W_e_rows<E>, W_e_cols<V>,
                                              W_e_scalar<T>, A...>())));
template <class T, class V, class E, class Te, class... A>
    requires(!requires(const tied_unembedding<T, V, E>& p, const Te& te, A&&... a) {
        typed::backward(p, te, static_cast<A&&>(a)...);
    })
auto backward(const tied_unembedding<T, V, E>& p, const Te& te, A&&... args) noexcept
    -> decltype(typeformer::detail::shape_error_of<in::Algorithm_7_unembedding_backward>(
        typeformer::detail::first_error(
            detail::tied_embedding_error<token_embedding<T, E, V>, Te>(),
            detail::unembedding_backward_error<T, V, E, W_e_rows<E>, W_e_cols<V>, W_e_scalar<T>,
                                               token_embedding<T, E, V>, A...>())));

}  // namespace typeformer::nn

namespace typeformer {
using nn::tied_unembedding;
using nn::unembedding;
}  // namespace typeformer
