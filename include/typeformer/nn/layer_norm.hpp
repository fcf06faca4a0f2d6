// Algorithm 6: layer normalisation, and RMSnorm (the same with m = β = 0), over each column.
//
//   X, Y, dY, dX   (D, C)   D the normalised dimension (d_e, or d_f after Algorithm 9's W_f);
//                           C a sequence length such as l_x<256>
//   gamma, beta    (D)      element-wise scale and offset
//   cache<C>       mean, rstd (C): per column m_t and 1/sqrt(v_t + ε), what backward needs
//
//   layer_norm:  Y[:, t] = (X[:, t] − m_t) / sqrt(v_t + ε) ⊙ γ + β   (population variance v_t)
//   rms_norm:    Y[:, t] = X[:, t] / sqrt(mean(X[:, t]²) + ε) ⊙ γ
//
// ε is a hyperparameter the caller passes (the models default it to 1e-5); ε = 0 is exactly the
// paper's Algorithm 6. Backward accumulates (+=) into dX and the parameter gradients.
#pragma once

#include <boost/hana/define_struct.hpp>
#include <type_traits>

#include "../shape_error.hpp"  // first: an error's note then names only this include

#include "../kernels.hpp"
#include "../tensor.hpp"
#include "gradient.hpp"
#include "operands.hpp"

namespace typeformer::nn {

template <class T, fixed_dimension D>
struct layer_norm {
    using gamma_type = vec<T, D>;  // (D); Hana's macro cannot take the comma
    BOOST_HANA_DEFINE_STRUCT(layer_norm, (gamma_type, gamma), (gamma_type, beta));

    template <dimension C>
    struct cache {
        vec<T, C> mean;  // (C) m_t
        vec<T, C> rstd;  // (C) 1/sqrt(v_t + ε)
    };
};

template <class T, fixed_dimension D>
struct rms_norm {
    using gamma_type = vec<T, D>;  // (D)
    BOOST_HANA_DEFINE_STRUCT(rms_norm, (gamma_type, gamma));

    template <dimension C>
    struct cache {
        vec<T, C> rstd;  // (C) 1/sqrt(mean(x²) + ε)
    };
};

namespace detail {
// dX += the gradient of Algorithm 6 (X the forward's input, mean and rstd its statistics); dγ, dβ
// to the sink g. v: where γ is read (the block, or a trainable copy of its gains).
template <class V, class Xt, class DYt, class DXt, class G, class M, class R>
void layer_norm_backward(const V& v, const Xt& X, const DYt& dY, DXt&& dX, const G& g,
                         const M& mean, const R& rstd) noexcept {
    g.update_always(
        v,
        [&](auto dgamma, auto dbeta) {
            ::typeformer::layer_norm_backward(dY, X, v.gamma, mean, rstd, dX, dgamma, dbeta);
        },
        leaf::gamma, leaf::beta);
}
// ... and of RMSnorm (dγ only).
template <class V, class Xt, class DYt, class DXt, class G, class R>
void rms_norm_backward(const V& v, const Xt& X, const DYt& dY, DXt&& dX, const G& g,
                       const R& rstd) noexcept {
    g.update_always(
        v, [&](auto dgamma) { ::typeformer::rms_norm_backward(dY, X, v.gamma, rstd, dX, dgamma); },
        leaf::gamma);
}
}  // namespace detail

inline namespace typed {

// Algorithm 6 for every column t of X (Y may be X).
template <class T, class D, class Xt, class Yt>
    requires columnwise_operands<T, D, Xt, Yt>
constexpr void forward(const layer_norm<T, D>& p, const Xt& X, Yt&& Y,
                       typename layer_norm<T, D>::template cache<detail::cols_of<Xt>>& c,
                       std::type_identity_t<T> eps) noexcept {
    const auto Xv = as_view(X);  // (D, C)
    detail::set_length(c.mean, Xv.cols());
    detail::set_length(c.rstd, Xv.cols());
    // 1: m ← Σ_i e[i]/d_e   2: v ← Σ_i (e[i] − m)²/d_e   3: ê = (e − m)/sqrt(v + ε) ⊙ γ + β
    ::typeformer::layer_norm(Xv, p.gamma, p.beta, eps, Y, c.mean, c.rstd);
}

// dX, dgamma, dbeta += the gradient of Algorithm 6 (X is the forward's input).
template <class T, class D, class Xt, class DYt, class DXt>
    requires columnwise_grad_operands<T, D, Xt, DYt, DXt>
void backward(const layer_norm<T, D>& p, const Xt& X, const DYt& dY, DXt&& dX,
              layer_norm<T, D>& grads,
              const typename layer_norm<T, D>::template cache<detail::cols_of<Xt>>& c) noexcept {
    detail::layer_norm_backward(p, X, dY, dX, detail::accumulate_into<layer_norm<T, D>, T>(grads),
                                c.mean, c.rstd);
}

// RMSnorm for every column t of X (Y may be X).
template <class T, class D, class Xt, class Yt>
    requires columnwise_operands<T, D, Xt, Yt>
constexpr void forward(const rms_norm<T, D>& p, const Xt& X, Yt&& Y,
                       typename rms_norm<T, D>::template cache<detail::cols_of<Xt>>& c,
                       std::type_identity_t<T> eps) noexcept {
    const auto Xv = as_view(X);  // (D, C)
    detail::set_length(c.rstd, Xv.cols());
    // Algorithm 6 with m = β = 0: ê = e / sqrt(Σ_i e[i]²/d_e + ε) ⊙ γ
    ::typeformer::rms_norm(Xv, p.gamma, eps, Y, c.rstd);
}

// dX, dgamma += the gradient of RMSnorm (X is the forward's input).
template <class T, class D, class Xt, class DYt, class DXt>
    requires columnwise_grad_operands<T, D, Xt, DYt, DXt>
void backward(const rms_norm<T, D>& p, const Xt& X, const DYt& dY, DXt&& dX, rms_norm<T, D>& grads,
              const typename rms_norm<T, D>::template cache<detail::cols_of<Xt>>& c) noexcept {
    detail::rms_norm_backward(p, X, dY, dX, detail::accumulate_into<rms_norm<T, D>, T>(grads),
                              c.rstd);
}

}  // namespace typed

// ---- a mis-shaped call: one error naming both dimensions (shape_error.hpp) ----

template <class T, class D, class... A>
    requires(!requires(const layer_norm<T, D>& p, A&&... a) {
        typed::forward(p, static_cast<A&&>(a)...);
    })
auto forward(const layer_norm<T, D>& p, A&&... args) noexcept
    -> decltype(typeformer::detail::shape_error_of<in::Algorithm_6_layer_norm>(
        detail::columnwise_forward_error<layer_norm<T, D>, T, D, gamma_rows<D>, gamma_rows<D>,
                                         gamma_scalar<T>, A...>()));
template <class T, class D, class... A>
    requires(!requires(const layer_norm<T, D>& p, A&&... a) {
        typed::backward(p, static_cast<A&&>(a)...);
    })
auto backward(const layer_norm<T, D>& p, A&&... args) noexcept
    -> decltype(typeformer::detail::shape_error_of<in::Algorithm_6_layer_norm_backward>(
        detail::columnwise_backward_error<layer_norm<T, D>, T, D, gamma_rows<D>, gamma_scalar<T>,
                                          A...>()));

template <class T, class D, class... A>
    requires(!requires(const rms_norm<T, D>& p, A&&... a) {
        typed::forward(p, static_cast<A&&>(a)...);
    })
auto forward(const rms_norm<T, D>& p, A&&... args) noexcept
    -> decltype(typeformer::detail::shape_error_of<in::RMSnorm>(
        detail::columnwise_forward_error<rms_norm<T, D>, T, D, gamma_rows<D>, gamma_rows<D>,
                                         gamma_scalar<T>, A...>()));
template <class T, class D, class... A>
    requires(!requires(const rms_norm<T, D>& p, A&&... a) {
        typed::backward(p, static_cast<A&&>(a)...);
    })
auto backward(const rms_norm<T, D>& p, A&&... args) noexcept
    -> decltype(typeformer::detail::shape_error_of<in::RMSnorm_backward>(
        detail::columnwise_backward_error<rms_norm<T, D>, T, D, gamma_rows<D>, gamma_scalar<T>,
                                          A...>()));

}  // namespace typeformer::nn
