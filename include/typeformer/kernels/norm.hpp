// Layer norm (Algorithm 6) and RMSnorm over each column of X, over named dimensions.
//
//   X, Y, dY, dX (D, C)    gamma, beta, dgamma, dbeta (D)    mean, rstd (C)  (C may be bounded)
//   layer_norm(X, gamma, beta, eps, Y, mean, rstd)   Y[:, t] = (X[:, t] − m_t)·rstd_t ⊙ γ + β
//        population variance, rstd_t = 1/sqrt(v_t + eps); mean, rstd written for t < cols
//   layer_norm_backward(dY, X, gamma, mean, rstd, dX, dgamma, dbeta)   all three +=
//   rms_norm(X, gamma, eps, Y, rstd)        Y[:, t] = X[:, t]·rstd_t ⊙ γ, rstd = 1/sqrt(mean(x²)+eps)
//   rms_norm_backward(dY, X, gamma, rstd, dX, dgamma)                  both +=
// Y may alias X.
#pragma once

#include "common.hpp"
#include "diagnose.hpp"

namespace typeformer {

// X's column statistics and parameters: gamma (and beta) per row, mean and rstd per column.
template <class X, class G, class S>
concept norm_operands =
    matrix<X> && vector_matches_rows<typename G::dim_type, typename X::rows_dim> &&
    vector_matches_cols<typename S::dim_type, typename X::cols_dim> &&
    same_value_type<kernels::detail::value_of<X>, kernels::detail::value_of<G>> &&
    same_value_type<kernels::detail::value_of<X>, kernels::detail::value_of<S>>;

template <class X, class Y>
concept norm_same_shape = same_shape<kernels::detail::shape_of<X>, kernels::detail::shape_of<Y>> &&
    same_value_type<kernels::detail::value_of<X>, kernels::detail::value_of<Y>>;

namespace kernels::detail {
template <class X, class Y>
constexpr void check_same_extents(const X& x, const Y& y, const char* what) noexcept {
    TYPEFORMER_CHECK(x.rows == y.rows && x.cols == y.cols, what);
}
}  // namespace kernels::detail

// 1–5: Y[:, t] = (X[:, t] − m_t)·rstd_t ⊙ γ + β
template <class X, class G, class B, class Y, class M, class R>
    requires norm_operands<X, G, std::remove_cvref_t<M>> && norm_same_shape<G, B> &&
        norm_same_shape<X, std::remove_cvref_t<Y>> && norm_same_shape<M, R> &&
        writable<kernels::detail::element_of<Y>> && writable<kernels::detail::element_of<M>> &&
        writable<kernels::detail::element_of<R>>
constexpr void layer_norm(const X& x, const G& gamma, const B& beta,
                          kernels::detail::value_of<X> eps, Y&& y, M&& mean, R&& rstd) noexcept {
    const auto xr = kernels::detail::raw_of(x);
    const auto yr = kernels::detail::raw_of(y);
    const auto g = as_view(gamma);
    const auto b = as_view(beta);
    const auto m = as_view(mean);
    const auto r = as_view(rstd);
    kernels::detail::check_same_extents(xr, yr, "layer_norm: X and Y extents differ");
    TYPEFORMER_CHECK(g.size() == xr.rows && b.size() == xr.rows,
                     "layer_norm: gamma/beta extent differs from X's rows");
    TYPEFORMER_CHECK(m.size() >= xr.cols && r.size() >= xr.cols,
                     "layer_norm: mean/rstd shorter than X's columns");
    kernels::backend::layer_norm(xr.rows, xr.cols, eps, xr.ptr, xr.ld, g.data(), b.data(), yr.ptr,
                                 yr.ld, m.data(), r.data());
}

// dX, dgamma, dbeta += ∂/∂(X, γ, β) of layer_norm, given its saved mean and rstd
template <class DY, class X, class G, class M, class R, class DX, class DG, class DB>
    requires norm_operands<X, G, M> && norm_same_shape<M, R> && norm_same_shape<X, DY> &&
        norm_same_shape<X, std::remove_cvref_t<DX>> &&
        norm_same_shape<G, std::remove_cvref_t<DG>> &&
        norm_same_shape<G, std::remove_cvref_t<DB>> && writable<kernels::detail::element_of<DX>> &&
        writable<kernels::detail::element_of<DG>> && writable<kernels::detail::element_of<DB>>
void layer_norm_backward(const DY& dy, const X& x, const G& gamma, const M& mean, const R& rstd,
                         DX&& dx, DG&& dgamma, DB&& dbeta) noexcept {
    const auto dyr = kernels::detail::raw_of(dy);
    const auto xr = kernels::detail::raw_of(x);
    const auto dxr = kernels::detail::raw_of(dx);
    const auto g = as_view(gamma);
    const auto m = as_view(mean);
    const auto r = as_view(rstd);
    const auto dg = as_view(dgamma);
    const auto db = as_view(dbeta);
    kernels::detail::check_same_extents(xr, dyr, "layer_norm_backward: X and dY extents differ");
    kernels::detail::check_same_extents(xr, dxr, "layer_norm_backward: X and dX extents differ");
    TYPEFORMER_CHECK(g.size() == xr.rows && dg.size() == xr.rows && db.size() == xr.rows,
                     "layer_norm_backward: gamma/dgamma/dbeta extent differs from X's rows");
    TYPEFORMER_CHECK(m.size() >= xr.cols && r.size() >= xr.cols,
                     "layer_norm_backward: mean/rstd shorter than X's columns");
    kernels::backend::layer_norm_backward(xr.rows, xr.cols, dyr.ptr, dyr.ld, xr.ptr, xr.ld,
                                          g.data(), m.data(), r.data(), dxr.ptr, dxr.ld, dg.data(),
                                          db.data());
}

// Y[:, t] = X[:, t]·rstd_t ⊙ γ
template <class X, class G, class Y, class R>
    requires norm_operands<X, G, std::remove_cvref_t<R>> &&
        norm_same_shape<X, std::remove_cvref_t<Y>> && writable<kernels::detail::element_of<Y>> &&
        writable<kernels::detail::element_of<R>>
constexpr void rms_norm(const X& x, const G& gamma, kernels::detail::value_of<X> eps, Y&& y,
                        R&& rstd) noexcept {
    const auto xr = kernels::detail::raw_of(x);
    const auto yr = kernels::detail::raw_of(y);
    const auto g = as_view(gamma);
    const auto r = as_view(rstd);
    kernels::detail::check_same_extents(xr, yr, "rms_norm: X and Y extents differ");
    TYPEFORMER_CHECK(g.size() == xr.rows, "rms_norm: gamma's extent differs from X's rows");
    TYPEFORMER_CHECK(r.size() >= xr.cols, "rms_norm: rstd shorter than X's columns");
    kernels::backend::rms_norm(xr.rows, xr.cols, eps, xr.ptr, xr.ld, g.data(), yr.ptr, yr.ld,
                               r.data());
}

// dX, dgamma += ∂/∂(X, γ) of rms_norm, given its saved rstd
template <class DY, class X, class G, class R, class DX, class DG>
    requires norm_operands<X, G, R> && norm_same_shape<X, DY> &&
        norm_same_shape<X, std::remove_cvref_t<DX>> &&
        norm_same_shape<G, std::remove_cvref_t<DG>> && writable<kernels::detail::element_of<DX>> &&
        writable<kernels::detail::element_of<DG>>
void rms_norm_backward(const DY& dy, const X& x, const G& gamma, const R& rstd, DX&& dx,
                       DG&& dgamma) noexcept {
    const auto dyr = kernels::detail::raw_of(dy);
    const auto xr = kernels::detail::raw_of(x);
    const auto dxr = kernels::detail::raw_of(dx);
    const auto g = as_view(gamma);
    const auto r = as_view(rstd);
    const auto dg = as_view(dgamma);
    kernels::detail::check_same_extents(xr, dyr, "rms_norm_backward: X and dY extents differ");
    kernels::detail::check_same_extents(xr, dxr, "rms_norm_backward: X and dX extents differ");
    TYPEFORMER_CHECK(g.size() == xr.rows && dg.size() == xr.rows,
                     "rms_norm_backward: gamma/dgamma extent differs from X's rows");
    TYPEFORMER_CHECK(r.size() >= xr.cols, "rms_norm_backward: rstd shorter than X's columns");
    kernels::backend::rms_norm_backward(xr.rows, xr.cols, dyr.ptr, dyr.ld, xr.ptr, xr.ld, g.data(),
                                        r.data(), dxr.ptr, dxr.ld, dg.data());
}

// ---- a mis-shaped call: one error naming both dimensions (shape_error.hpp) ----

namespace kernels::detail {
// X (D, C) read, gamma (and beta) (D), Y as X written, mean and rstd (C) written.
template <class X, class G, class Y, class R>
constexpr auto norm_checks() {
    using namespace typeformer::detail;
    return first_error(
        check_matrix<role::X, X>(), check_vector<role::gamma, G>(),
        check_same_rows<role::gamma, G, role::X, X>(), check_matrix<role::Y, Y>(),
        check_same_shape<role::Y, Y, role::X, X>(), check_vector<role::rstd, R>(),
        [] {
            if constexpr (diagnosable_matrix<X> && diagnosable_vector<R>)
                return check_rows<role::rstd, R, typename bare_t<X>::cols_dim,
                                  X_cols<typename bare_t<X>::cols_dim>>();
            else
                return what<>{};
        }(),
        check_same_scalar<role::gamma, G, role::X, X>(),
        check_same_scalar<role::Y, Y, role::X, X>(), check_same_scalar<role::rstd, R, role::X, X>(),
        check_writable<role::Y, Y>(), check_writable<role::rstd, R>());
}
// The backward forms: dY and dX shaped as X, the statistics (C) read, dgamma (D) written.
template <class DY, class X, class G, class R, class DX, class DG>
constexpr auto norm_backward_checks() {
    using namespace typeformer::detail;
    return first_error(
        check_matrix<role::X, X>(), check_vector<role::gamma, G>(),
        check_same_rows<role::gamma, G, role::X, X>(), check_matrix<role::dY, DY>(),
        check_same_shape<role::dY, DY, role::X, X>(), check_matrix<role::dX, DX>(),
        check_same_shape<role::dX, DX, role::X, X>(), check_vector<role::rstd, R>(),
        [] {
            if constexpr (diagnosable_matrix<X> && diagnosable_vector<R>)
                return check_rows<role::rstd, R, typename bare_t<X>::cols_dim,
                                  X_cols<typename bare_t<X>::cols_dim>>();
            else
                return what<>{};
        }(),
        check_same_shape<role::dgamma, DG, role::gamma, G>(),
        check_same_scalar<role::gamma, G, role::X, X>(),
        check_same_scalar<role::dY, DY, role::X, X>(),
        check_same_scalar<role::dX, DX, role::X, X>(),
        check_same_scalar<role::rstd, R, role::X, X>(),
        check_same_scalar<role::dgamma, DG, role::X, X>(), check_writable<role::dX, DX>(),
        check_writable<role::dgamma, DG>());
}
}  // namespace kernels::detail

template <class X, class G, class B, class Eps, class Y, class M, class R>
    requires(!requires {
        requires norm_operands<X, G, std::remove_cvref_t<M>> && norm_same_shape<G, B> &&
            norm_same_shape<X, std::remove_cvref_t<Y>> && norm_same_shape<M, R> &&
            writable<kernels::detail::element_of<Y>> && writable<kernels::detail::element_of<M>> &&
            writable<kernels::detail::element_of<R>>;
    })
auto layer_norm(const X& x, const G& gamma, const B& beta, Eps eps, Y&& y, M&& mean,
                R&& rstd) noexcept
    -> decltype(detail::shape_error_of<in::layer_norm_kernel>(
        detail::or_arguments<const X&, const G&, const B&, Eps, Y, M, R>(detail::first_error(
            kernels::detail::norm_checks<const X&, const G&, Y, R>(),
            detail::check_same_shape<role::beta, const B&, role::gamma, const G&>(),
            detail::check_same_shape<role::mean, M, role::rstd, R>(),
            detail::check_writable<role::mean, M>()))));

template <class X, class G, class Eps, class Y, class R>
    requires(!requires {
        requires norm_operands<X, G, std::remove_cvref_t<R>> &&
            norm_same_shape<X, std::remove_cvref_t<Y>> &&
            writable<kernels::detail::element_of<Y>> && writable<kernels::detail::element_of<R>>;
    })
auto rms_norm(const X& x, const G& gamma, Eps eps, Y&& y, R&& rstd) noexcept
    -> decltype(detail::shape_error_of<in::rms_norm_kernel>(
        detail::or_arguments<const X&, const G&, Eps, Y, R>(
            kernels::detail::norm_checks<const X&, const G&, Y, R>())));

template <class DY, class X, class G, class M, class R, class DX, class DG, class DB>
    requires(!requires {
        requires norm_operands<X, G, M> && norm_same_shape<M, R> && norm_same_shape<X, DY> &&
            norm_same_shape<X, std::remove_cvref_t<DX>> &&
            norm_same_shape<G, std::remove_cvref_t<DG>> &&
            norm_same_shape<G, std::remove_cvref_t<DB>> &&
            writable<kernels::detail::element_of<DX>> &&
            writable<kernels::detail::element_of<DG>> && writable<kernels::detail::element_of<DB>>;
    })
auto layer_norm_backward(const DY& dy, const X& x, const G& gamma, const M& mean, const R& rstd,
                         DX&& dx, DG&& dgamma, DB&& dbeta) noexcept
    -> decltype(detail::shape_error_of<in::layer_norm_kernel_backward>(
        detail::or_arguments<const DY&, const X&, const G&, const M&, const R&, DX, DG, DB>(
            detail::first_error(
                kernels::detail::norm_backward_checks<const DY&, const X&, const G&, const R&, DX,
                                                      DG>(),
                detail::check_same_shape<role::mean, const M&, role::rstd, const R&>(),
                detail::check_same_shape<role::dbeta, DB, role::gamma, const G&>(),
                detail::check_writable<role::dbeta, DB>()))));

template <class DY, class X, class G, class R, class DX, class DG>
    requires(!requires {
        requires norm_operands<X, G, R> && norm_same_shape<X, DY> &&
            norm_same_shape<X, std::remove_cvref_t<DX>> &&
            norm_same_shape<G, std::remove_cvref_t<DG>> &&
            writable<kernels::detail::element_of<DX>> && writable<kernels::detail::element_of<DG>>;
    })
auto rms_norm_backward(const DY& dy, const X& x, const G& gamma, const R& rstd, DX&& dx,
                       DG&& dgamma) noexcept
    -> decltype(detail::shape_error_of<in::rms_norm_kernel_backward>(
        detail::or_arguments<const DY&, const X&, const G&, const R&, DX, DG>(
            kernels::detail::norm_backward_checks<const DY&, const X&, const G&, const R&, DX,
                                                  DG>())));

}  // namespace typeformer
