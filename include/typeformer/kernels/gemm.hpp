// Matrix products over named dimensions (typed layer over kernels::backend).
//
//   matmul(A, B, C)       C ← A·B      A (R, K), B (K, N), C (R, N)
//   matmul_add(A, B, C)   C += A·B
//   matvec(A, x, y)       y ← A·x      A (R, K), x (K), y (R)
//   matvec_add(A, x, y)   y += A·x
//
// A or B may be transpose(M) (a tag, never a copy): forms A·B, Aᵀ·B, A·Bᵀ. C must not alias
// A or B.
#pragma once

#include <cstddef>

#include "common.hpp"
#include "diagnose.hpp"

namespace typeformer {

namespace kernels::detail {

// `band`: what a causal mask lets the kernels skip (kernels/scalar/gemm.hpp); attention passes it.
// `ep`: a fused epilogue (a bias, a residual; kernels/scalar/gemm.hpp); the nn blocks
// build it from their typed operands, whose shapes their own signatures have checked.
template <class A, class B, class C>
constexpr void matmul_impl(const A& a, const B& b, C& c, bool accumulate, gemm_band band = {},
                           const gemm_epilogue<value_of<C>>& ep = {}) noexcept {
    using TA = operand_traits<A>;
    using TB = operand_traits<B>;
    const auto av = TA::stored(a);
    const auto bv = TB::stored(b);
    const auto cv = as_view(c);
    const std::size_t m = TA::is_transposed ? av.cols() : av.rows();
    const std::size_t k = TA::is_transposed ? av.rows() : av.cols();
    const std::size_t kb = TB::is_transposed ? bv.cols() : bv.rows();
    const std::size_t n = TB::is_transposed ? bv.rows() : bv.cols();
    TYPEFORMER_CHECK(k == kb, "matmul: A's column extent differs from B's row extent");
    TYPEFORMER_CHECK(cv.rows() == m && cv.cols() == n, "matmul: C's extents are not A·B's");
    TYPEFORMER_CHECK(ep.empty() || band.what == gemm_band::kind::none,
                     "matmul: an epilogue is not combined with a band");
    if constexpr (TA::is_transposed)
        backend::gemm_tn(m, n, k, av.data(), av.stride(), bv.data(), bv.stride(), cv.data(),
                         cv.stride(), accumulate, band, ep);
    else if constexpr (TB::is_transposed)
        backend::gemm_nt(m, n, k, av.data(), av.stride(), bv.data(), bv.stride(), cv.data(),
                         cv.stride(), accumulate, band, ep);
    else
        backend::gemm_nn(m, n, k, av.data(), av.stride(), bv.data(), bv.stride(), cv.data(),
                         cv.stride(), accumulate, band, ep);
}

template <class A, class X, class Y>
constexpr void matvec_impl(const A& a, const X& x, Y& y, bool accumulate) noexcept {
    using TA = operand_traits<A>;
    const auto av = TA::stored(a);
    const auto xv = as_view(x);
    const auto yv = as_view(y);
    const std::size_t m = TA::is_transposed ? av.cols() : av.rows();
    const std::size_t k = TA::is_transposed ? av.rows() : av.cols();
    TYPEFORMER_CHECK(xv.size() == k, "matvec: x's extent differs from A's column extent");
    TYPEFORMER_CHECK(yv.size() == m, "matvec: y's extent differs from A's row extent");
    if constexpr (TA::is_transposed)
        backend::gemv_t(m, k, av.data(), av.stride(), xv.data(), yv.data(), accumulate);
    else
        backend::gemv_n(m, k, av.data(), av.stride(), xv.data(), yv.data(), accumulate);
}

}  // namespace kernels::detail

// ---- shape rules of a product, each one is_same_v deep so GCC names both dimensions ----

// A·B needs A's column dim to be B's row dim.
template <class ACols, class BRows>
concept inner_dims_match = std::is_same_v<ACols, BRows>;
// C ← A·B needs C's row dim to be A's row dim ...
template <class CRows, class ARows>
concept result_rows_match = std::is_same_v<CRows, ARows>;
// ... and C's column dim to be B's column dim.
template <class CCols, class BCols>
concept result_cols_match = std::is_same_v<CCols, BCols>;
// Aᵀ·Bᵀ is not a form the kernels provide; compute B·A instead.
template <class A, class B>
concept at_most_one_transposed =
    !(kernels::detail::is_transposed_v<A> && kernels::detail::is_transposed_v<B>);

// What C ←/+= A·B requires besides inner_dims_match (which the products check first, directly,
// so the commonest mistake is reported one level deep). C is the output's forwarded type.
template <class A, class B, class C>
concept matmul_result = result_rows_match < kernels::detail::rows_of<C>,
typename A::rows_dim >
    &&result_cols_match<kernels::detail::cols_of<C>, typename B::cols_dim>&& at_most_one_transposed<
        A, B>&& same_value_type<kernels::detail::value_of<A>, kernels::detail::value_of<B>>&&
        same_value_type<kernels::detail::value_of<A>, kernels::detail::value_of<C>>&&
            writable<kernels::detail::element_of<C>>;

// What y ←/+= A·x requires besides inner_dims_match. Y is the output's forwarded type.
template <class A, class X, class Y>
concept matvec_result = result_rows_match < kernels::detail::dim_of<Y>,
typename A::rows_dim >
    &&same_value_type<kernels::detail::value_of<A>, kernels::detail::value_of<X>>&&
        same_value_type<kernels::detail::value_of<A>, kernels::detail::value_of<Y>>&&
            writable<kernels::detail::element_of<Y>>;

// C ← A·B
template <class A, class B, class C>
    requires inner_dims_match<typename A::cols_dim, typename B::rows_dim> && matmul_result<A, B, C>
constexpr void matmul(const A& a, const B& b, C&& c) noexcept {
    kernels::detail::matmul_impl(a, b, c, false);
}

// C += A·B
template <class A, class B, class C>
    requires inner_dims_match<typename A::cols_dim, typename B::rows_dim> && matmul_result<A, B, C>
constexpr void matmul_add(const A& a, const B& b, C&& c) noexcept {
    kernels::detail::matmul_impl(a, b, c, true);
}

// y ← A·x
template <class A, class X, class Y>
    requires inner_dims_match<typename A::cols_dim, typename X::dim_type> && matvec_result<A, X, Y>
constexpr void matvec(const A& a, const X& x, Y&& y) noexcept {
    kernels::detail::matvec_impl(a, x, y, false);
}

// y += A·x
template <class A, class X, class Y>
    requires inner_dims_match<typename A::cols_dim, typename X::dim_type> && matvec_result<A, X, Y>
constexpr void matvec_add(const A& a, const X& x, Y&& y) noexcept {
    kernels::detail::matvec_impl(a, x, y, true);
}

// ---- a mis-shaped product: one error that names both dimensions (shape_error.hpp) ----

template <class A, class B, class C>
concept matmul_accepts =
    inner_dims_match<typename A::cols_dim, typename B::rows_dim> && matmul_result<A, B, C>;
template <class A, class X, class Y>
concept matvec_accepts =
    inner_dims_match<typename A::cols_dim, typename X::dim_type> && matvec_result<A, X, Y>;

namespace kernels::detail {
// A's columns are B's rows (B a matrix, or the vector x of a matrix–vector product).
template <class RoleB, class A, class B>
constexpr auto check_inner() {
    using namespace typeformer::detail;
    if constexpr (!diagnosable_matrix<A> || !diagnosable_tensor<B>)
        return what<>{};
    else if constexpr (!std::is_same_v<typename bare_t<A>::cols_dim, diag_rows_t<B>>)
        return what<A_cols<typename bare_t<A>::cols_dim>,
                    typename RoleB::template rows<diag_rows_t<B>>>{};
    else
        return what<>{};
}

// In the order of C ← A·B's rules: operands, inner dims, result dims, the form, scalars, C writable.
template <class A, class B, class C>
constexpr auto matmul_error() {
    using namespace typeformer::detail;
    constexpr bool both_t = is_transposed_v<bare_t<A>> && is_transposed_v<bare_t<B>>;
    return or_arguments<A, B, C>(first_error(
        check_matrix<role::A, A, true>(), check_matrix<role::B, B, true>(),
        check_matrix<role::C, C>(), check_inner<role::B, A, B>(),
        check_same_rows<role::C, C, role::A, A>(), check_same_cols<role::C, C, role::B, B>(),
        std::conditional_t<both_t, what<both_transposed<bare_t<A>, bare_t<B>>>, what<>>{},
        check_same_scalar<role::B, B, role::A, A>(), check_same_scalar<role::C, C, role::A, A>(),
        check_writable<role::C, C>()));
}

// The same for y ← A·x.
template <class A, class X, class Y>
constexpr auto matvec_error() {
    using namespace typeformer::detail;
    return or_arguments<A, X, Y>(first_error(
        check_matrix<role::A, A, true>(), check_vector<role::x, X>(), check_vector<role::y, Y>(),
        check_inner<role::x, A, X>(), check_same_rows<role::y, Y, role::A, A>(),
        check_same_scalar<role::x, X, role::A, A>(), check_same_scalar<role::y, Y, role::A, A>(),
        check_writable<role::y, Y>()));
}
}  // namespace kernels::detail

template <class A, class B, class C>
    requires(!matmul_accepts<A, B, C> && !requires { typename A::out_dim; })  // (q8_mat: q8.hpp)
auto matmul(const A& a, const B& b, C&& c) noexcept
    -> decltype(detail::shape_error_of<in::matmul>(kernels::detail::matmul_error<A, B, C>()));
template <class A, class B, class C>
    requires(!matmul_accepts<A, B, C>)
auto matmul_add(const A& a, const B& b, C&& c) noexcept
    -> decltype(detail::shape_error_of<in::matmul_add>(kernels::detail::matmul_error<A, B, C>()));
template <class A, class X, class Y>
    requires(!matvec_accepts<A, X, Y>)
auto matvec(const A& a, const X& x, Y&& y) noexcept
    -> decltype(detail::shape_error_of<in::matvec>(kernels::detail::matvec_error<A, X, Y>()));
template <class A, class X, class Y>
    requires(!matvec_accepts<A, X, Y>)
auto matvec_add(const A& a, const X& x, Y&& y) noexcept
    -> decltype(detail::shape_error_of<in::matvec_add>(kernels::detail::matvec_error<A, X, Y>()));

}  // namespace typeformer
