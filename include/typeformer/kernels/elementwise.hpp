// Elementwise updates of vectors and matrices over named dimensions.
//
//   axpy(a, X, Y)   Y += a·X    X, Y the same dims (vec or mat)
//   scale(X, a)     X *= a
#pragma once

#include "common.hpp"

namespace typeformer {

template <class X, class Y>
concept elementwise_operands =
    same_shape<kernels::detail::shape_of<X>, kernels::detail::shape_of<Y>> &&
    same_value_type<kernels::detail::value_of<X>, kernels::detail::value_of<Y>>;

// Y += a·X
template <class X, class Y>
    requires elementwise_operands<X, std::remove_cvref_t<Y>> &&
        writable<kernels::detail::element_of<Y>>
void axpy(std::type_identity_t<kernels::detail::value_of<X>> a, const X& x, Y&& y) noexcept {
    const auto xr = kernels::detail::raw_of(x);
    const auto yr = kernels::detail::raw_of(y);
    TYPEFORMER_CHECK(xr.rows == yr.rows && xr.cols == yr.cols, "axpy: extents differ");
    kernels::backend::axpy(xr.rows, xr.cols, a, xr.ptr, xr.ld, yr.ptr, yr.ld);
}

// X *= a
template <class X>
    requires writable<kernels::detail::element_of<X>>
void scale(X&& x, kernels::detail::value_of<X> a) noexcept {
    const auto xr = kernels::detail::raw_of(x);
    kernels::backend::scale(xr.rows, xr.cols, a, xr.ptr, xr.ld);
}

}  // namespace typeformer
