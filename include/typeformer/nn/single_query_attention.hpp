// Algorithm 3: ṽ ← basic single-query attention(e, [e_1, …, e_T]).
//
//   e    (d_in)           the current token          E = [e_1, …, e_T]  (d_in, T)  its context
//   W_q  (d_attn, d_in)   b_q (d_attn)               q (d_attn)
//   W_k  (d_attn, d_in)   b_k (d_attn)               K = [k_1, …, k_T]  (d_attn, T)
//   W_v  (d_out, d_in)    b_v (d_out)                V = [v_1, …, v_T]  (d_out, T)
//   α (T)                 ṽ (d_out)
//
// The parameters are Algorithm 4's W_qkv with d_x = d_z = d_in, so single_query_attention is an
// alias of Attention, not a second struct: a trained Attention head runs one query at a time
// with no copy, and Algorithm 3 on e = X[:, t], E = X[:, 0..t] is column t of Algorithm 4 with
// the unidirectional mask (the step of incremental decoding; tests/nn check the equality).
// Written with matrix–vector products, independently of Algorithm 4's matrix core.
#pragma once

#include <cmath>
#include <cstddef>
#include <type_traits>

#include "../shape_error.hpp"  // first: an error's note then names only this include

#include "../kernels.hpp"
#include "../tensor.hpp"
#include "attention.hpp"
#include "operands.hpp"

namespace typeformer::nn {

template <class T, fixed_dimension Din, fixed_dimension Dattn, fixed_dimension Dout>
using single_query_attention = Attention<T, Din, Din, Dattn, Dout>;

// What backward needs besides the inputs e, E; sized at the context's capacity.
template <class T, fixed_dimension Dattn, fixed_dimension Dout, dimension Tctx>
struct single_query_cache {
    vec<T, Dattn> q;        // 1
    mat<T, Dattn, Tctx> K;  // 2: [k_1, …, k_T]
    mat<T, Dout, Tctx> V;   // 3: [v_1, …, v_T]
    vec<T, Tctx> alpha;     // 4
};
// Backward's working memory (contents meaningless between calls).
template <class T, fixed_dimension Dattn, fixed_dimension Dout, dimension Tctx>
struct single_query_scratch {
    vec<T, Dattn> dq;
    mat<T, Dattn, Tctx> dK;
    mat<T, Dout, Tctx> dV;
    vec<T, Tctx> dalpha, ds;
};

namespace detail {
using kernels::detail::dim_of;

// The width of a vector seen as a one-column matrix (for softmax_columns and outer products).
TYPEFORMER_DIM(one_column);

// x as the single column of a (D, 1) matrix.
template <class V>
constexpr auto single_query_column(V&& x) noexcept {
    const auto v = as_view(x);
    using E = std::remove_pointer_t<decltype(v.data())>;
    using D = typename decltype(v)::dim_type;
    return mat_view<E, D, one_column<1>>{v.data(), v.size() > 0 ? v.size() : 1, v.size(), 1};
}

template <class V>
constexpr void single_query_resize(V& x, std::size_t n) noexcept {
    if constexpr (bounded_dimension<typename V::dim_type>)
        x.resize(n);
    else
        TYPEFORMER_CHECK(n == V::dim_type::size,
                         "single-query attention: T differs from a fixed dim");
}
}  // namespace detail

inline namespace typed {

// Algorithm 3: one query e (d_in) against the context E (d_in, T) → ṽ (d_out).
template <class T, class Din, class Dattn, class Dout, class EV, class EM, class VV>
    requires vector<std::remove_cvref_t<EV>> && rows_are<detail::dim_of<EV>, Din> &&
        matrix_operand<EM> && vector<std::remove_cvref_t<VV>> &&
        rows_are<detail::dim_of<VV>, Dout> && rows_are<detail::rows_of<EM>, Din> &&
        same_value_type<detail::value_of<EV>, T> && same_value_type<detail::value_of<EM>, T> &&
        same_value_type<detail::value_of<VV>, T> && writable<detail::element_of<VV>>
void forward(const Attention<T, Din, Din, Dattn, Dout>& p, const EV& e, const EM& E, VV&& v_tilde,
             single_query_cache<T, Dattn, Dout, detail::cols_of<EM>>& c) noexcept {
    const auto Ev = as_view(E);
    const std::size_t n = Ev.cols();
    detail::attention_resize(c.K, Dattn::size, n);
    detail::attention_resize(c.V, Dout::size, n);
    detail::single_query_resize(c.alpha, n);

    matvec(p.W_q, e, c.q);  // 1: q ← W_q e + b_q                     (d_attn)
    axpy(T(1), p.b_q, c.q);
    matmul(p.W_k, Ev, c.K);  // 2: ∀t: k_t ← W_k e_t + b_k             (d_attn, T)
    add_bias(c.K, p.b_k);
    matmul(p.W_v, Ev, c.V);  // 3: ∀t: v_t ← W_v e_t + b_v             (d_out, T)
    add_bias(c.V, p.b_v);
    matvec(transpose(c.K), c.q, c.alpha);  // 4: qᵀk_t                           (T)
    // 4: α_t = exp(qᵀk_t/√d_attn) / Σ_u exp(qᵀk_u/√d_attn)
    softmax_columns(detail::single_query_column(c.alpha), detail::attention_scale<T, Dattn>(),
                    mask_bidirectional{});
    matvec(c.V, c.alpha, v_tilde);  // 5: ṽ = Σ_t α_t v_t                     (d_out)
}

// Backward of Algorithm 3: ACCUMULATES (+=) into de, dE and grads. e may be a column of E (the
// decoding step) and de the matching column of dE.
template <class T, class Din, class Dattn, class Dout, class EV, class EM, class DVV, class DEV,
          class DEM>
    requires vector<std::remove_cvref_t<EV>> && rows_are<detail::dim_of<EV>, Din> &&
        matrix_operand<EM> && vector<std::remove_cvref_t<DVV>> &&
        rows_are<detail::dim_of<DVV>, Dout> && vector<std::remove_cvref_t<DEV>> &&
        rows_are<detail::dim_of<DEV>, Din> && matrix_operand<DEM> &&
        rows_are<detail::rows_of<EM>, Din> && rows_are<detail::rows_of<DEM>, Din> &&
        same_columns<detail::cols_of<DEM>, detail::cols_of<EM>> &&
        same_value_type<detail::value_of<EV>, T> && same_value_type<detail::value_of<EM>, T> &&
        same_value_type<detail::value_of<DVV>, T> && same_value_type<detail::value_of<DEV>, T> &&
        same_value_type<detail::value_of<DEM>, T> && writable<detail::element_of<DEV>> &&
        writable<detail::element_of<DEM>>
void backward(const Attention<T, Din, Din, Dattn, Dout>& p, const EV& e, const EM& E,
              const DVV& dv_tilde, DEV&& de, DEM&& dE, Attention<T, Din, Din, Dattn, Dout>& grads,
              const single_query_cache<T, Dattn, Dout, detail::cols_of<EM>>& c,
              single_query_scratch<T, Dattn, Dout, detail::cols_of<EM>>& s) noexcept {
    using detail::single_query_column;
    const auto Ev = as_view(E);
    const std::size_t n = Ev.cols();
    TYPEFORMER_CHECK(c.alpha.size() == n,
                     "single-query attention backward: E is not the forward's");
    detail::attention_resize(s.dK, Dattn::size, n);
    detail::attention_resize(s.dV, Dout::size, n);
    detail::single_query_resize(s.dalpha, n);
    detail::single_query_resize(s.ds, n);
    const T scale = detail::attention_scale<T, Dattn>();

    matvec(transpose(c.V), dv_tilde, s.dalpha);  // 5: dα = Vᵀ dṽ                (T)
    matmul(single_query_column(dv_tilde), transpose(single_query_column(c.alpha)),
           s.dV);      // 5: dV = dṽ αᵀ                (d_out, T)
    fill(s.ds, T(0));  // 4: ds = α ⊙ (dα − αᵀdα)/√d_attn
    softmax_columns_backward(single_query_column(c.alpha), single_query_column(s.dalpha), scale,
                             single_query_column(s.ds));
    matvec(c.K, s.ds, s.dq);  // 4: dq = K ds                 (d_attn)
    matmul(single_query_column(c.q), transpose(single_query_column(s.ds)),
           s.dK);  // 4: dK = q dsᵀ                (d_attn, T)

    matmul_add(s.dV, transpose(Ev), grads.W_v);  // 3: dW_v += dV Eᵀ
    add_bias_grad(s.dV, grads.b_v);              // 3: db_v += Σ_t dv_t
    matmul_add(transpose(p.W_v), s.dV, dE);      // 3: dE += W_vᵀ dV
    matmul_add(s.dK, transpose(Ev), grads.W_k);  // 2: dW_k += dK Eᵀ
    add_bias_grad(s.dK, grads.b_k);              // 2: db_k += Σ_t dk_t
    matmul_add(transpose(p.W_k), s.dK, dE);      // 2: dE += W_kᵀ dK
    matmul_add(single_query_column(s.dq), transpose(single_query_column(e)),
               grads.W_q);                   // 1: dW_q += dq eᵀ
    axpy(T(1), s.dq, grads.b_q);             // 1: db_q += dq
    matvec_add(transpose(p.W_q), s.dq, de);  // 1: de += W_qᵀ dq
}

}  // namespace typed

// ---- a mis-shaped call: one error naming both dimensions (shape_error.hpp) ----

namespace detail {

// forward(p, e, E, ṽ, cache): e (d_in), E (d_in, T), ṽ (d_out).
template <class T, class Din, class Dattn, class Dout, class... A>
constexpr auto single_query_forward_error() {
    if constexpr (sizeof...(A) < 4) {
        return what<arguments<bare_t<A>...>>{};
    } else {
        using Ev = arg_ref_t<0, A...>;
        using Em = arg_ref_t<1, A...>;
        using V = arg_ref_t<2, A...>;
        auto cache = [] {
            if constexpr (matrix_operand<Em>)
                return check_cache<arg_t<3, A...>,
                                   single_query_cache<T, Dattn, Dout, cols_of<Em>>>();
            else
                return what<>{};
        };
        return or_arguments<A...>(first_error(
            check_vector<role::e, Ev>(), check_rows<role::e, Ev, Din, W_q_cols<Din>>(),
            check_matrix<role::E, Em>(), check_rows<role::E, Em, Din, W_k_cols<Din>>(),
            check_vector<role::v_tilde, V>(), check_rows<role::v_tilde, V, Dout, W_v_rows<Dout>>(),
            check_scalar<role::e, Ev, T, W_q_scalar<T>>(),
            check_scalar<role::E, Em, T, W_k_scalar<T>>(),
            check_scalar<role::v_tilde, V, T, W_v_scalar<T>>(), check_writable<role::v_tilde, V>(),
            cache()));
    }
}

// backward(p, e, E, dṽ, de, dE, grads, cache, scratch): dṽ as ṽ, de as e, dE as E.
template <class T, class Din, class Dattn, class Dout, class... A>
constexpr auto single_query_backward_error() {
    if constexpr (sizeof...(A) < 8) {
        return what<arguments<bare_t<A>...>>{};
    } else {
        using Ev = arg_ref_t<0, A...>;
        using Em = arg_ref_t<1, A...>;
        using DV = arg_ref_t<2, A...>;
        using DEv = arg_ref_t<3, A...>;
        using DEm = arg_ref_t<4, A...>;
        auto cache = [] {
            if constexpr (matrix_operand<Em>)
                return first_error(
                    check_cache<arg_t<6, A...>, single_query_cache<T, Dattn, Dout, cols_of<Em>>>(),
                    check_cache<arg_t<7, A...>,
                                single_query_scratch<T, Dattn, Dout, cols_of<Em>>>());
            else
                return what<>{};
        };
        return or_arguments<A...>(first_error(
            check_vector<role::e, Ev>(), check_rows<role::e, Ev, Din, W_q_cols<Din>>(),
            check_matrix<role::E, Em>(), check_rows<role::E, Em, Din, W_k_cols<Din>>(),
            check_vector<role::dv_tilde, DV>(),
            check_rows<role::dv_tilde, DV, Dout, W_v_rows<Dout>>(), check_vector<role::de, DEv>(),
            check_rows<role::de, DEv, Din, W_q_cols<Din>>(), check_matrix<role::dE, DEm>(),
            check_same_shape<role::dE, DEm, role::E, Em>(),
            check_scalar<role::e, Ev, T, W_q_scalar<T>>(),
            check_scalar<role::E, Em, T, W_k_scalar<T>>(),
            check_scalar<role::dv_tilde, DV, T, W_v_scalar<T>>(),
            check_scalar<role::de, DEv, T, W_q_scalar<T>>(),
            check_scalar<role::dE, DEm, T, W_k_scalar<T>>(), check_writable<role::de, DEv>(),
            check_writable<role::dE, DEm>(),
            check_grads<arg_t<5, A...>, Attention<T, Din, Din, Dattn, Dout>>(), cache()));
    }
}

}  // namespace detail

template <class T, class Din, class Dattn, class Dout, class... A>
    requires(detail::first_is_vector<A...> &&
             !requires(const Attention<T, Din, Din, Dattn, Dout>& p, A&&... a) {
                 typed::forward(p, static_cast<A&&>(a)...);
             })
auto forward(const Attention<T, Din, Din, Dattn, Dout>& p, A&&... args) noexcept
    -> decltype(typeformer::detail::shape_error_of<in::Algorithm_3_single_query_attention>(
        detail::single_query_forward_error<T, Din, Dattn, Dout, A...>()));
template <class T, class Din, class Dattn, class Dout, class... A>
    requires(detail::first_is_vector<A...> &&
             !requires(const Attention<T, Din, Din, Dattn, Dout>& p, A&&... a) {
                 typed::backward(p, static_cast<A&&>(a)...);
             })
auto backward(const Attention<T, Din, Din, Dattn, Dout>& p, A&&... args) noexcept
    -> decltype(typeformer::detail::shape_error_of<in::Algorithm_3_single_query_attention_backward>(
        detail::single_query_backward_error<T, Din, Dattn, Dout, A...>()));

}  // namespace typeformer::nn
