// What the nn blocks require of their tensor arguments.
//
// A block's forward/backward take owning tensors or views (mat, mat_view, const or not) as
// generic parameters and check them here, one constraint deep, so a mis-shaped call fails at
// the block with the two dimensions printed (`is_same_v<XRows, D> [with XRows = d_mlp<37>;
// D = d_e<19>]`), not inside a kernel. The extents are checked at run time by the kernels.
//
//   rows_are<rows_of<X>, D>        X has D rows (the block's d_e, d_mlp, N_V, ...)
//   same_columns<cols_of<Y>, cols_of<X>>   Y and X run over the same sequence dimension
//   plus the kernels' same_value_type<...> and writable<...> (kernels/common.hpp)
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>

#include "../shape_error.hpp"  // first: an error's note then names only this include

#include "../kernels.hpp"
#include "../kernels/diagnose.hpp"

namespace typeformer::nn {

namespace detail {
using namespace typeformer::detail;  // the checks of kernels/diagnose.hpp
using kernels::detail::cols_of;
using kernels::detail::element_of;
using kernels::detail::rows_of;
using kernels::detail::value_of;

// A cache's per-column tensor (vec over C, or mat with columns C) takes the forward's length n;
// nothing to do when C is a fixed dimension.
template <class X>
constexpr void set_length(X& x, std::size_t n) noexcept {
    (void)x;
    (void)n;
    if constexpr (matrix<X>) {
        if constexpr (bounded_dimension<typename X::cols_dim>)
            x.resize_cols(n);
    } else {
        if constexpr (bounded_dimension<typename X::dim_type>)
            x.resize(n);
    }
}
}  // namespace detail

// X's row dimension is the block's D.
template <class XRows, class D>
concept rows_are = std::is_same_v<XRows, D>;

// Two matrices of a block run over the same column (sequence) dimension, e.g. l_x<256>.
template <class YCols, class XCols>
concept same_columns = std::is_same_v<YCols, XCols>;

// A matrix, its view or a const one (not a vector, not transpose(M)).
template <class X>
concept matrix_operand =
    matrix<std::remove_cvref_t<X>> && !kernels::detail::is_transposed_v<std::remove_cvref_t<X>>;

// A position-wise block's forward (layer_norm, rms_norm, the MLP): X and Y both (D, C) with the
// same columns, of scalar type T, Y writable.
template <class T, class D, class Xt, class Yt>
concept columnwise_operands =
    matrix_operand<Xt> && matrix_operand<Yt> && rows_are<detail::rows_of<Xt>, D> &&
    rows_are<detail::rows_of<Yt>, D> && same_columns<detail::cols_of<Yt>, detail::cols_of<Xt>> &&
    same_value_type<detail::value_of<Xt>, T> && same_value_type<detail::value_of<Yt>, T> &&
    writable<detail::element_of<Yt>>;

// ... and its backward: dY read, dX written, both shaped as X.
template <class T, class D, class Xt, class DYt, class DXt>
concept columnwise_grad_operands = matrix_operand<Xt> && matrix_operand<DYt> &&
    matrix_operand<DXt> && rows_are<detail::rows_of<Xt>, D> && rows_are<detail::rows_of<DYt>, D> &&
    rows_are<detail::rows_of<DXt>, D> && same_columns<detail::cols_of<DYt>, detail::cols_of<Xt>> &&
    same_columns<detail::cols_of<DXt>, detail::cols_of<Xt>> &&
    same_value_type<detail::value_of<Xt>, T> && same_value_type<detail::value_of<DYt>, T> &&
    same_value_type<detail::value_of<DXt>, T> && writable<detail::element_of<DXt>>;

// ---- what a mis-shaped call of a block reports (shape_error.hpp) ----

namespace detail {

// A block's cache or scratch is the one made for these lengths.
template <class Given, class Expected>
constexpr auto check_cache() {
    if constexpr (!std::is_same_v<std::remove_cvref_t<Given>, Expected>)
        return what<cache_given<std::remove_cvref_t<Given>>, cache_expected<Expected>>{};
    else
        return what<>{};
}
// The gradient of a block has the block's type.
template <class Given, class Block>
constexpr auto check_grads() {
    if constexpr (!std::is_same_v<std::remove_cvref_t<Given>, Block>)
        return what<grads<std::remove_cvref_t<Given>>, block<Block>>{};
    else
        return what<>{};
}

// A position-wise block's forward(p, X, Y, cache[, eps]): X, Y (D, C) of scalar type T, Y written.
// ExpectX, ExpectY name the parameter whose dimension X's and Y's rows must be (W_1_cols<d_e>, ...),
// ExpectT the parameter whose scalar type they must have.
template <class Block, class T, class D, class ExpectX, class ExpectY, class ExpectT, class... A>
constexpr auto columnwise_forward_error() {
    if constexpr (sizeof...(A) < 3) {
        return what<arguments<bare_t<A>...>>{};
    } else {
        using X = arg_ref_t<0, A...>;
        using Y = arg_ref_t<1, A...>;
        auto cache = [] {
            if constexpr (matrix_operand<X>)
                return check_cache<arg_t<2, A...>, typename Block::template cache<cols_of<X>>>();
            else
                return what<>{};
        };
        auto residual = [] {  // forward(p, X, Y, cache, R): R shaped as Y
            if constexpr (sizeof...(A) == 4) {
                using R = arg_ref_t<3, A...>;
                return first_error(check_matrix<role::R, R>(), check_rows<role::R, R, D, ExpectY>(),
                                   check_same_cols<role::R, R, role::X, X>(),
                                   check_scalar<role::R, R, T, ExpectT>());
            } else {
                return what<>{};
            }
        };
        return or_arguments<A...>(first_error(
            check_matrix<role::X, X>(), check_rows<role::X, X, D, ExpectX>(),
            check_matrix<role::Y, Y>(), check_rows<role::Y, Y, D, ExpectY>(),
            check_same_cols<role::Y, Y, role::X, X>(), check_scalar<role::X, X, T, ExpectT>(),
            check_scalar<role::Y, Y, T, ExpectT>(), check_writable<role::Y, Y>(), cache(),
            residual()));
    }
}

// ... and its backward(p, X, dY, dX, grads, cache[, scratch]): dY read, dX written, both as X.
template <class Block, class T, class D, class ExpectX, class ExpectT, class... A>
constexpr auto columnwise_backward_error() {
    if constexpr (sizeof...(A) < 5) {
        return what<arguments<bare_t<A>...>>{};
    } else {
        using X = arg_ref_t<0, A...>;
        using DY = arg_ref_t<1, A...>;
        using DX = arg_ref_t<2, A...>;
        auto cache = [] {
            if constexpr (!matrix_operand<X>)
                return what<>{};
            else if constexpr (sizeof...(A) > 5 &&
                               requires { typename Block::template scratch<cols_of<X>>; })
                return first_error(
                    check_cache<arg_t<4, A...>, typename Block::template cache<cols_of<X>>>(),
                    check_cache<arg_t<5, A...>, typename Block::template scratch<cols_of<X>>>());
            else
                return check_cache<arg_t<4, A...>, typename Block::template cache<cols_of<X>>>();
        };
        return or_arguments<A...>(first_error(
            check_matrix<role::X, X>(), check_rows<role::X, X, D, ExpectX>(),
            check_matrix<role::dY, DY>(), check_same_shape<role::dY, DY, role::X, X>(),
            check_matrix<role::dX, DX>(), check_same_shape<role::dX, DX, role::X, X>(),
            check_scalar<role::X, X, T, ExpectT>(), check_scalar<role::dY, DY, T, ExpectT>(),
            check_scalar<role::dX, DX, T, ExpectT>(), check_writable<role::dX, DX>(),
            check_grads<arg_t<3, A...>, Block>(), cache()));
    }
}

}  // namespace detail

}  // namespace typeformer::nn
