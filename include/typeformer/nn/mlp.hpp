// The position-wise MLP of Algorithm 8 (lines 7 and 18), Algorithm 9 (line 7) and
// Algorithm 10 (line 8):
//     Y = W_2·Act(W_1·X + b_1 1ᵀ) + b_2 1ᵀ
// and, given a residual R, Y = R + that (the model's residual add, fused into the product).
//
//   X, Y, dX, dY   (d_e, C)     C a sequence length such as l_x<256>
//   W_1 (d_mlp, d_e)  b_1 (d_mlp)  W_2 (d_e, d_mlp)  b_2 (d_e)     the paper's W_mlp1, b_mlp1, W_mlp2, b_mlp2
//   cache<C>       pre (d_mlp, C) = W_1 X + b_1 1ᵀ      act (d_mlp, C) = Act(pre)
//   scratch<C>     dAct, d_pre (d_mlp, C)                backward's working memory
//
// Act is an activation type from nn/activation.hpp: relu (Algorithm 8), gelu (9, 10), gelu_tanh.
//
// Backward accumulates (+=) into dX and the gradients; like the attention blocks it reads a
// const cache and works in a caller-owned scratch, which a model shares across its layers.
#pragma once

#include <boost/hana/define_struct.hpp>
#include <cstddef>
#include <type_traits>

#include "../shape_error.hpp"  // first: an error's note then names only this include

#include "../kernels.hpp"
#include "../tensor.hpp"
#include "activation.hpp"
#include "gradient.hpp"
#include "operands.hpp"

namespace typeformer::nn {

template <class T, fixed_dimension E, fixed_dimension M, activation Act>
struct mlp {
    using activation_type = Act;
    using W_1_type = mat<T, M, E>;  // (d_mlp, d_e)
    using b_1_type = vec<T, M>;     // (d_mlp)
    using W_2_type = mat<T, E, M>;  // (d_e, d_mlp)
    using b_2_type = vec<T, E>;     // (d_e)
    BOOST_HANA_DEFINE_STRUCT(mlp, (W_1_type, W_1), (b_1_type, b_1), (W_2_type, W_2),
                             (b_2_type, b_2));

    template <dimension C>
    struct cache {
        mat<T, M, C> pre;  // (d_mlp, C) W_1 X + b_1 1ᵀ; backward needs Act′(pre)
        mat<T, M, C> act;  // (d_mlp, C) Act(pre); dW_2 needs it
    };
    template <dimension C>
    struct scratch {
        mat<T, M, C> dAct;   // (d_mlp, C) W_2ᵀ dY
        mat<T, M, C> d_pre;  // (d_mlp, C) dAct ⊙ Act′(pre)
    };
};

inline namespace typed {}  // namespace typed

namespace detail {
// Y = W_2·Act(W_1·X + b_1 1ᵀ) + b_2 1ᵀ, then `out` (+ R: a residual, or nothing). The biases and
// R are the products' fused epilogues: added in each register tile before it is stored instead
// of in passes over (d_mlp, C) and (d_e, C) afterwards (the same operations per entry, so the
// same bits). Act stays a pass: in the tile, GELU's erf measured slower (docs/performance.md).
template <class T, class E, class M, class Act, class XV, class Yt>
constexpr void mlp_forward(const mlp<T, E, M, Act>& p, const XV& Xv, Yt&& Y,
                           typename mlp<T, E, M, Act>::template cache<cols_of<XV>>& c,
                           kernels::gemm_epilogue<T> out) noexcept {
    using kernels::gemm_epilogue;
    using kernels::detail::matmul_impl;
    set_length(c.pre, Xv.cols());
    set_length(c.act, Xv.cols());
    // Algorithm 10, line 8 (9: line 7; 8: lines 7, 18), inside the residual add:
    matmul_impl(p.W_1, Xv, c.pre, false, {},
                gemm_epilogue<T>{}.with_bias(p.b_1.data()));  // W¹_mlp X + b¹_mlp 1ᵀ  (d_mlp, C)
    Act::forward(c.pre, c.act);  // GELU(·) (ReLU in Algorithm 8)                  (d_mlp, C)
    // W²_mlp · + b²_mlp 1ᵀ (+ R)                                                  (d_e, C)
    matmul_impl(p.W_2, c.act, Y, false, {}, out.with_bias(p.b_2.data()));
}

// Backward of the hidden units [r0, r1) (all d_mlp of them in the plain backward; a tile at a time
// when the hidden activations are recomputed, train/step.hpp): pre and act (r1 − r0, C) hold those
// units' W_1 X + b_1 1ᵀ and Act(pre); dAct, d_pre (r1 − r0, C) are scratch. Adds their share of
// dX and hands the gradients of W_2[:, r0:r1], b_1[r0:r1], W_1[r0:r1, :] to the sink g (after the
// last read of each: an in-place sink may update them); act and d_pre are scratch afterwards.
// add_dAct(dAct) adds what else reaches the units' output (a low-rank adapter's path round W_2,
// train/step.hpp) before the activation's backward.
struct no_dact_term {
    template <class DAv>
    constexpr void operator()(const DAv&) const noexcept {}
};
template <class Act, class P, class Xv, class DYv, class DXv, class G, class Pre, class Av,
          class DAv, class DPv, class AddDAct = no_dact_term>
void mlp_units_backward(const P& p, std::size_t r0, std::size_t r1, const Xv& X, const DYv& dY,
                        const DXv& dX, const G& g, const Pre& pre, const Av& act, const DAv& dAct,
                        const DPv& d_pre, const AddDAct& add_dAct = {}) noexcept {
    using T = typename Xv::value_type;
    matmul(transpose(cols(p.W_2, r0, r1)), dY, dAct);  // dAct = W_2ᵀ dY
    add_dAct(dAct);
    g.update(leaf::W_2, [&](auto dW, auto a) {  // dW_2 += dY · Actᵀ
        scale_scratch(act, a);
        matmul_add(dY, transpose(act), cols(dW, r0, r1));
    });
    fill(d_pre, T(0));
    Act::backward(pre, dAct, d_pre);  // d pre = dAct ⊙ Act′(pre)
    // db_1 += d pre 1;  dX += W_1ᵀ d pre;  dW_1 += d pre · Xᵀ
    projection_backward(p.W_1, leaf::W_1, leaf::b_1, r0, r1, X, d_pre, dX, g);
}

// The whole MLP's backward into the sink g: db_2, then every hidden unit at once.
template <class T, class E, class M, class Act, class Xv, class DYv, class DXv, class G, class Pre,
          class Av, class DAv, class DPv>
void mlp_backward(const mlp<T, E, M, Act>& p, const Xv& X, const DYv& dY, const DXv& dX, const G& g,
                  const Pre& pre, const Av& act, const DAv& dAct, const DPv& d_pre) noexcept {
    g.update(leaf::b_2, [&](auto db, auto) { add_bias_grad(dY, db); });  // db_2 += dY 1
    mlp_units_backward<Act>(p, 0, M::size, X, dY, dX, g, pre, act, dAct, d_pre);
}
}  // namespace detail

inline namespace typed {

// Y = W_2·Act(W_1·X + b_1 1ᵀ) + b_2 1ᵀ
template <class T, class E, class M, class Act, class Xt, class Yt>
    requires columnwise_operands<T, E, Xt, Yt>
constexpr void forward(
    const mlp<T, E, M, Act>& p, const Xt& X, Yt&& Y,
    typename mlp<T, E, M, Act>::template cache<detail::cols_of<Xt>>& c) noexcept {
    detail::mlp_forward(p, as_view(X), Y, c, kernels::gemm_epilogue<T>{});
}

// Y = R + W_2·Act(W_1·X + b_1 1ᵀ) + b_2 1ᵀ: a block's residual add (Algorithm 10, line 8) done
// in the product's epilogue. R (d_e, C) must not share storage with Y.
template <class T, class E, class M, class Act, class Xt, class Yt, class Rt>
    requires columnwise_operands<T, E, Xt, Yt> && matrix_operand<Rt> &&
        rows_are<detail::rows_of<Rt>, E> &&
        same_columns<detail::cols_of<Rt>, detail::cols_of<Xt>> &&
        same_value_type<detail::value_of<Rt>, T>
constexpr void forward(const mlp<T, E, M, Act>& p, const Xt& X, Yt&& Y,
                       typename mlp<T, E, M, Act>::template cache<detail::cols_of<Xt>>& c,
                       const Rt& R) noexcept {
    const auto Xv = as_view(X);  // (d_e, C)
    const auto r = kernels::detail::raw_of(R);
    TYPEFORMER_CHECK(r.cols == Xv.cols(), "mlp forward: R must have X's number of columns");
    TYPEFORMER_CHECK(r.ptr != kernels::detail::raw_of(Y).ptr,
                     "mlp forward: the residual R shares Y's storage");
    detail::mlp_forward(p, Xv, Y, c, kernels::gemm_epilogue<T>{}.with_residual(r.ptr, r.ld));
}

// dX, dW_1, db_1, dW_2, db_2 += the gradient of the MLP (X is the forward's input).
template <class T, class E, class M, class Act, class Xt, class DYt, class DXt>
    requires columnwise_grad_operands<T, E, Xt, DYt, DXt>
void backward(const mlp<T, E, M, Act>& p, const Xt& X, const DYt& dY, DXt&& dX,
              mlp<T, E, M, Act>& grads,
              const typename mlp<T, E, M, Act>::template cache<detail::cols_of<Xt>>& c,
              typename mlp<T, E, M, Act>::template scratch<detail::cols_of<Xt>>& s) noexcept {
    const auto Xv = as_view(X);  // (d_e, C)
    TYPEFORMER_CHECK(c.act.cols() == Xv.cols(), "mlp backward: the cache is not from this X");
    detail::set_length(s.dAct, Xv.cols());
    detail::set_length(s.d_pre, Xv.cols());
    detail::mlp_backward(p, Xv, as_view(dY), as_view(dX),
                         detail::accumulate_into<mlp<T, E, M, Act>, T>(grads), c.pre.view(),
                         c.act.view(), s.dAct.view(), s.d_pre.view());
}

}  // namespace typed

// ---- a mis-shaped call: one error naming both dimensions (shape_error.hpp) ----

template <class T, class E, class M, class Act, class... A>
    requires(!requires(const mlp<T, E, M, Act>& p, A&&... a) {
        typed::forward(p, static_cast<A&&>(a)...);
    })
auto forward(const mlp<T, E, M, Act>& p, A&&... args) noexcept
    -> decltype(typeformer::detail::shape_error_of<in::MLP>(
        detail::columnwise_forward_error<mlp<T, E, M, Act>, T, E, W_1_cols<E>, W_2_rows<E>,
                                         W_1_scalar<T>, A...>()));

template <class T, class E, class M, class Act, class... A>
    requires(!requires(const mlp<T, E, M, Act>& p, A&&... a) {
        typed::backward(p, static_cast<A&&>(a)...);
    })
auto backward(const mlp<T, E, M, Act>& p, A&&... args) noexcept
    -> decltype(typeformer::detail::shape_error_of<in::MLP_backward>(
        detail::columnwise_backward_error<mlp<T, E, M, Act>, T, E, W_1_cols<E>, W_1_scalar<T>,
                                          A...>()));

}  // namespace typeformer::nn

namespace typeformer {
using nn::mlp;
}  // namespace typeformer
