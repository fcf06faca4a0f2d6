// Elementwise activations over named dimensions (vec or mat; X, Y, dY, dX the same dims).
//
//   relu(X, Y)        Y = max(X, 0)                          relu_backward(X, dY, dX)       dX += dY ⊙ [X > 0]
//   gelu(X, Y)        Y = 0.5·x·(1 + erf(x/√2))  (the paper's gelu_backward(X, dY, dX)       dX += dY ⊙ gelu′(X)
//                     exact form)
//   gelu_tanh(X, Y)   Y = 0.5·x·(1 + tanh(√(2/π)(x + 0.044715x³)))   gelu_tanh_backward(X, dY, dX)
// Y may alias X in forward.
#pragma once

#include "common.hpp"

namespace typeformer {

namespace kernels::detail {
template <class X, class Y, class F>
void unary(const X& x, Y& y, F f) noexcept {
    const auto xr = raw_of(x);
    const auto yr = raw_of(y);
    TYPEFORMER_CHECK(xr.rows == yr.rows && xr.cols == yr.cols, "activation: extents differ");
    f(xr.rows, xr.cols, xr.ptr, xr.ld, yr.ptr, yr.ld);
}
template <class X, class DY, class DX, class F>
void unary_backward(const X& x, const DY& dy, DX& dx, F f) noexcept {
    const auto xr = raw_of(x);
    const auto dyr = raw_of(dy);
    const auto dxr = raw_of(dx);
    TYPEFORMER_CHECK(
        xr.rows == dyr.rows && xr.cols == dyr.cols && xr.rows == dxr.rows && xr.cols == dxr.cols,
        "activation backward: extents differ");
    f(xr.rows, xr.cols, xr.ptr, xr.ld, dyr.ptr, dyr.ld, dxr.ptr, dxr.ld);
}
}  // namespace kernels::detail

template <class X, class Y>
concept activation_operands =
    same_shape<kernels::detail::shape_of<X>, kernels::detail::shape_of<Y>> &&
    same_value_type<kernels::detail::value_of<X>, kernels::detail::value_of<Y>> &&
    writable<kernels::detail::element_of<Y>>;

// dY is only read (it may be a view of const); dX is written.
template <class X, class DY, class DX>
concept activation_backward_operands =
    same_shape<kernels::detail::shape_of<X>, kernels::detail::shape_of<DY>> &&
    same_value_type<kernels::detail::value_of<X>, kernels::detail::value_of<DY>> &&
    activation_operands<X, DX>;

#define TYPEFORMER_KERNELS_ACTIVATION(name)                                            \
    template <class X, class Y>                                                        \
        requires activation_operands<X, std::remove_reference_t<Y>>                    \
    void name(const X& x, Y&& y) noexcept {                                            \
        kernels::detail::unary(x, y, [](auto... a) { kernels::backend::name(a...); }); \
    }                                                                                  \
    template <class X, class DY, class DX>                                             \
        requires activation_backward_operands<X, DY, std::remove_reference_t<DX>>      \
    void name##_backward(const X& x, const DY& dy, DX&& dx) noexcept {                 \
        kernels::detail::unary_backward(                                               \
            x, dy, dx, [](auto... a) { kernels::backend::name##_backward(a...); });    \
    }

TYPEFORMER_KERNELS_ACTIVATION(relu)
TYPEFORMER_KERNELS_ACTIVATION(gelu)
TYPEFORMER_KERNELS_ACTIVATION(gelu_tanh)

#undef TYPEFORMER_KERNELS_ACTIVATION

}  // namespace typeformer
