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

#include "../kernels.hpp"
#include "../tensor.hpp"
#include "embedding.hpp"
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

// ---- Algorithm 7 ----

// logits = W_u X
template <class T, class V, class E, class Xt, class Lt>
    requires unembedding_operands<T, V, E, Xt, Lt> && writable<detail::element_of<Lt>>
void forward(const unembedding<T, V, E>& p, const Xt& X, Lt&& logits) noexcept {
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
    matmul_add(dlogits, transpose(X), grads.W_u);
    matmul_add(transpose(p.W_u), dlogits, dX);
}

// ---- tied: W_u = W_eᵀ ----

// logits = W_eᵀ X
template <class T, class V, class E, class Xt, class Lt>
    requires unembedding_operands<T, V, E, Xt, Lt> && writable<detail::element_of<Lt>>
void forward(const tied_unembedding<T, V, E>&, const token_embedding<T, E, V>& te, const Xt& X,
             Lt&& logits) noexcept {
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
    matmul_add(X, transpose(dlogits), te_grads.W_e);
    matmul_add(te.W_e, dlogits, dX);
}

}  // namespace typeformer::nn

namespace typeformer {
using nn::tied_unembedding;
using nn::unembedding;
}  // namespace typeformer
