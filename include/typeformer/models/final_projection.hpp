// Algorithm 9, line 10: X ← GELU(W_f X + b_f 1ᵀ), BERT's final projection from d_e to d_f.
//
//   X, dX      (d_e, ℓ)     the encoder's output stream
//   W_f        (d_f, d_e)   b_f (d_f)
//   Y, dY      (d_f, ℓ)     GELU(W_f X + b_f 1ᵀ), the final layer norm's input
//   cache<C>   pre (d_f, ℓ) = W_f X + b_f 1ᵀ, what GELU′ needs
//
// The module is "flattened": its parameters are named W_f, b_f in a weights file (no prefix),
// as DESIGN.md lists them.
#pragma once

#include <boost/hana/define_struct.hpp>

#include "../kernels.hpp"
#include "../nn/activation.hpp"
#include "../nn/gradient.hpp"
#include "../nn/operands.hpp"
#include "../tensor.hpp"
#include "diagnose.hpp"

namespace typeformer {

template <class T, fixed_dimension Df, fixed_dimension De, nn::activation Act>
struct final_projection {
    static constexpr bool flatten_params = true;  // W_f, b_f, not projection.W_f
    using W_f_type = mat<T, Df, De>;              // (d_f, d_e)
    using b_f_type = vec<T, Df>;                  // (d_f)
    BOOST_HANA_DEFINE_STRUCT(final_projection, (W_f_type, W_f), (b_f_type, b_f));

    template <dimension C>
    struct cache {
        mat<T, Df, C> pre;  // (d_f, C) W_f X + b_f 1ᵀ
    };
    template <dimension C>
    struct scratch {
        mat<T, Df, C> dpre;  // (d_f, C) ∂/∂pre
    };
};

inline namespace typed {

// 10: Y ← GELU(W_f X + b_f 1ᵀ)
template <class T, class Df, class De, class Act, class C>
void forward(const final_projection<T, Df, De, Act>& p, mat_view<const T, De, C> X,
             mat_view<T, Df, C> Y,
             typename final_projection<T, Df, De, Act>::template cache<C>& c) noexcept {
    c.pre.resize_cols(X.cols());
    // W_f X + b_f 1ᵀ: the bias in the product's epilogue (kernels/scalar/gemm.hpp)
    kernels::detail::matmul_impl(p.W_f, X, c.pre, false, {},
                                 kernels::gemm_epilogue<T>{}.with_bias(p.b_f.data()));
    Act::forward(c.pre, Y);  // GELU(·)
}

// dX, dW_f, db_f += the gradient of line 10 (X is the forward's input).
template <class T, class Df, class De, class Act, class C>
void backward(const final_projection<T, Df, De, Act>& p, mat_view<const T, De, C> X,
              mat_view<const T, Df, C> dY, mat_view<T, De, C> dX,
              final_projection<T, Df, De, Act>& grads,
              const typename final_projection<T, Df, De, Act>::template cache<C>& c,
              typename final_projection<T, Df, De, Act>::template scratch<C>& s) noexcept {
    s.dpre.resize_cols(X.cols());
    fill(s.dpre, T(0));
    Act::backward(c.pre, dY, s.dpre);  // ∂pre = dY ⊙ GELU′(pre)
    // db_f += ∂pre 1;  dX += W_fᵀ ∂pre;  dW_f += ∂pre Xᵀ
    nn::detail::projection_backward(
        p.W_f, nn::detail::leaf::W_f, nn::detail::leaf::b_f, 0, Df::size, X, s.dpre.view(),
        as_view(dX), nn::detail::accumulate_into<final_projection<T, Df, De, Act>, T>(grads));
}

}  // namespace typed

// ---- a call of no form above: the first argument that disagrees, by its role ----

namespace detail {
// forward(p, X, Y, c) and backward(p, X, dY, dX, grads, c, s), over X's columns C.
template <class T, class Df, class De, class Act>
struct final_projection_forward {
    using layer = final_projection<T, Df, De, Act>;
    static constexpr std::size_t sequences = 1;
    template <class C>
    using params = std::tuple<view_param<role::X, mat_view<const T, De, C>, W_f_cols<De>>,
                              view_param<role::Y, mat_view<T, Df, C>, W_f_rows<Df>, X_cols<C>>,
                              state_param<typename layer::template cache<C>>>;
};
template <class T, class Df, class De, class Act>
struct final_projection_backward {
    using layer = final_projection<T, Df, De, Act>;
    static constexpr std::size_t sequences = 1;
    template <class C>
    using params =
        std::tuple<view_param<role::X, mat_view<const T, De, C>, W_f_cols<De>>,
                   view_param<role::dY, mat_view<const T, Df, C>, W_f_rows<Df>, X_cols<C>>,
                   view_param<role::dX, mat_view<T, De, C>, X_rows<De>, X_cols<C>>,
                   grads_param<layer>, state_param<typename layer::template cache<C>>,
                   state_param<typename layer::template scratch<C>>>;
};
}  // namespace detail

template <class T, class Df, class De, class Act, class... A>
    requires(!requires(const final_projection<T, Df, De, Act>& p, A&&... a) {
        typed::forward(p, static_cast<A&&>(a)...);
    })
auto forward(const final_projection<T, Df, De, Act>& p, A&&... args) noexcept
    -> decltype(detail::shape_error_of<in::final_projection>(
        detail::layer_error<role::W_f, detail::final_projection_forward<T, Df, De, Act>, A...>()));
template <class T, class Df, class De, class Act, class... A>
    requires(!requires(const final_projection<T, Df, De, Act>& p, A&&... a) {
        typed::backward(p, static_cast<A&&>(a)...);
    })
auto backward(const final_projection<T, Df, De, Act>& p, A&&... args) noexcept
    -> decltype(detail::shape_error_of<in::final_projection_backward>(
        detail::layer_error<role::W_f, detail::final_projection_backward<T, Df, De, Act>, A...>()));

}  // namespace typeformer
