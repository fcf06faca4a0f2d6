// Elementwise updates of vectors and matrices over named dimensions.
//
//   axpy(a, X, Y)   Y += a·X    X, Y the same dims (vec or mat)
//   scale(X, a)     X *= a
#pragma once

#include "common.hpp"
#include "diagnose.hpp"

namespace typeformer {

template <class X, class Y>
concept elementwise_operands =
    same_shape<kernels::detail::shape_of<X>, kernels::detail::shape_of<Y>> &&
    same_value_type<kernels::detail::value_of<X>, kernels::detail::value_of<Y>>;

// Y += a·X
template <class X, class Y>
    requires elementwise_operands<X, std::remove_cvref_t<Y>> &&
        writable<kernels::detail::element_of<Y>>
constexpr void axpy(std::type_identity_t<kernels::detail::value_of<X>> a, const X& x,
                    Y&& y) noexcept {
    const auto xr = kernels::detail::raw_of(x);
    const auto yr = kernels::detail::raw_of(y);
    TYPEFORMER_CHECK(xr.rows == yr.rows && xr.cols == yr.cols, "axpy: extents differ");
    kernels::backend::axpy(xr.rows, xr.cols, a, xr.ptr, xr.ld, yr.ptr, yr.ld);
}

// X *= a
template <class X>
    requires writable<kernels::detail::element_of<X>>
constexpr void scale(X&& x, kernels::detail::value_of<X> a) noexcept {
    const auto xr = kernels::detail::raw_of(x);
    kernels::backend::scale(xr.rows, xr.cols, a, xr.ptr, xr.ld);
}

// ---- a mis-shaped call: one error naming both dimensions (shape_error.hpp) ----

template <class S, class X, class Y>
    requires(!requires {
        requires elementwise_operands<X, std::remove_cvref_t<Y>> &&
            writable<kernels::detail::element_of<Y>>;
    })
auto axpy(S a, const X& x, Y&& y) noexcept
    -> decltype(detail::shape_error_of<in::axpy>(detail::or_arguments<S, const X&, Y>(
        detail::first_error(detail::check_same_shape<role::y, Y, role::x, const X&>(),
                            detail::check_same_scalar<role::y, Y, role::x, const X&>(),
                            detail::check_writable<role::y, Y>()))));
template <class X, class S>
    requires(!writable<kernels::detail::element_of<X>>)
auto scale(X&& x, S a) noexcept -> decltype(detail::shape_error_of<in::scale>(
    detail::or_arguments<X, S>(detail::check_writable<role::X, X>())));

}  // namespace typeformer
