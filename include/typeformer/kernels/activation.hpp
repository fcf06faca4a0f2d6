// Elementwise activations over named dimensions (vec or mat; X, Y, dY, dX the same dims).
//
//   relu(X, Y)        Y = max(X, 0)                          relu_backward(X, dY, dX)       dX += dY ⊙ [X > 0]
//   gelu(X, Y)        Y = 0.5·x·(1 + erf(x/√2))  (the paper's gelu_backward(X, dY, dX)       dX += dY ⊙ gelu′(X)
//                     exact form)
//   gelu_tanh(X, Y)   Y = 0.5·x·(1 + tanh(√(2/π)(x + 0.044715x³)))   gelu_tanh_backward(X, dY, dX)
// Y may alias X in forward.
#pragma once

#include "common.hpp"
#include "diagnose.hpp"

namespace typeformer {

namespace kernels::detail {
template <class X, class Y, class F>
constexpr void unary(const X& x, Y& y, F f) noexcept {
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
    constexpr void name(const X& x, Y&& y) noexcept {                                  \
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

// ---- a mis-shaped call: one error naming both dimensions (shape_error.hpp) ----

namespace kernels::detail {
template <class X, class Y>
constexpr auto activation_error() {
    using namespace typeformer::detail;
    return or_arguments<X, Y>(first_error(check_same_shape<role::Y, Y, role::X, X>(),
                                          check_same_scalar<role::Y, Y, role::X, X>(),
                                          check_writable<role::Y, Y>()));
}
template <class X, class DY, class DX>
constexpr auto activation_backward_error() {
    using namespace typeformer::detail;
    return or_arguments<X, DY, DX>(first_error(
        check_same_shape<role::dY, DY, role::X, X>(), check_same_shape<role::dX, DX, role::X, X>(),
        check_same_scalar<role::dY, DY, role::X, X>(),
        check_same_scalar<role::dX, DX, role::X, X>(), check_writable<role::dX, DX>()));
}
}  // namespace kernels::detail

#define TYPEFORMER_KERNELS_ACTIVATION_ERROR(name)                                     \
    template <class X, class Y>                                                       \
        requires(!activation_operands<X, std::remove_reference_t<Y>>)                 \
    auto name(const X& x, Y&& y) noexcept->decltype(detail::shape_error_of<in::name>( \
        kernels::detail::activation_error<const X&, Y>()));                           \
    template <class X, class DY, class DX>                                            \
        requires(!activation_backward_operands<X, DY, std::remove_reference_t<DX>>)   \
    auto name##_backward(const X& x, const DY& dy, DX&& dx) noexcept                  \
        ->decltype(detail::shape_error_of<in::name##_backward>(                       \
            kernels::detail::activation_backward_error<const X&, const DY&, DX>()));

TYPEFORMER_KERNELS_ACTIVATION_ERROR(relu)
TYPEFORMER_KERNELS_ACTIVATION_ERROR(gelu)
TYPEFORMER_KERNELS_ACTIVATION_ERROR(gelu_tanh)

#undef TYPEFORMER_KERNELS_ACTIVATION_ERROR

}  // namespace typeformer
