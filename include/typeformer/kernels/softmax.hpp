// Softmax over the columns of a score matrix (the paper's softmax(S)[t_z, t_x]: each column,
// one query position t_x, is a distribution over the context positions t_z).
//
//   S, A, dA, dS  (l_z, l_x)
//   softmax_columns(S, scale, mask)            in place: S[:, t] ← softmax(scale·S[:, t]);
//                                              masked entries are −∞ before exp, exactly 0 after
//   softmax_columns_backward(A, dA, scale, dS[, mask])
//                                              dS += scale · A ⊙ (dA − 1·Σ_i A[i, t]·dA[i, t])
//                                              (under a causal mask: on the kept rows only)
//
// Masks (Algorithm 4's Mask[t_z, t_x]):
//   mask_bidirectional{}         Mask ≡ 1
//   mask_unidirectional{offset}  keep (t_z, t_x) iff t_z ≤ t_x + offset (offset: tokens already
//                                in a KV cache before column 0)
#pragma once

#include <cstddef>
#include <type_traits>

#include "common.hpp"
#include "diagnose.hpp"

namespace typeformer {

struct mask_bidirectional {};
struct mask_unidirectional {
    std::size_t offset = 0;
};

template <class M>
concept softmax_mask =
    std::is_same_v<M, mask_bidirectional> || std::is_same_v<M, mask_unidirectional>;

// S[:, t] ← softmax(scale·S[:, t]) under mask
template <class S, class Mask>
    requires matrix<std::remove_cvref_t<S>> && softmax_mask<Mask> &&
        writable<kernels::detail::element_of<S>>
constexpr void softmax_columns(S&& s, kernels::detail::value_of<S> scale, Mask mask) noexcept {
    const auto sr = kernels::detail::raw_of(s);
    if constexpr (std::is_same_v<Mask, mask_unidirectional>)
        kernels::backend::softmax_columns(sr.rows, sr.cols, scale, true,
                                          static_cast<std::ptrdiff_t>(mask.offset), sr.ptr, sr.ld);
    else
        kernels::backend::softmax_columns(sr.rows, sr.cols, scale, false, std::ptrdiff_t{0}, sr.ptr,
                                          sr.ld);
}

template <class A, class DA, class DS>
concept softmax_backward_operands =
    same_shape<kernels::detail::shape_of<A>, kernels::detail::shape_of<DA>> &&
    same_shape<kernels::detail::shape_of<A>, kernels::detail::shape_of<DS>> &&
    same_value_type<kernels::detail::value_of<A>, kernels::detail::value_of<DA>> &&
    same_value_type<kernels::detail::value_of<A>, kernels::detail::value_of<DS>>;

// dS += scale · A ⊙ (dA − 1·Σ_i A[i, t]·dA[i, t]), A = softmax_columns(S, scale, mask). Under a
// causal mask only the kept rows are read and written: the masked ones have A = 0, add nothing,
// and their dA need not be set (causal attention does not compute it).
template <class A, class DA, class DS, softmax_mask Mask = mask_bidirectional>
    requires matrix<A> && softmax_backward_operands<A, DA, std::remove_cvref_t<DS>> &&
        writable<kernels::detail::element_of<DS>>
void softmax_columns_backward(const A& a, const DA& da, kernels::detail::value_of<A> scale, DS&& ds,
                              Mask mask = {}) noexcept {
    const auto ar = kernels::detail::raw_of(a);
    const auto dar = kernels::detail::raw_of(da);
    const auto dsr = kernels::detail::raw_of(ds);
    TYPEFORMER_CHECK(
        ar.rows == dar.rows && ar.cols == dar.cols && ar.rows == dsr.rows && ar.cols == dsr.cols,
        "softmax_columns_backward: extents differ");
    bool causal = false;
    std::ptrdiff_t offset = 0;
    if constexpr (std::is_same_v<Mask, mask_unidirectional>) {
        causal = true;
        offset = static_cast<std::ptrdiff_t>(mask.offset);
    } else {
        (void)mask;
    }
    kernels::backend::softmax_columns_backward(ar.rows, ar.cols, scale, ar.ptr, ar.ld, dar.ptr,
                                               dar.ld, dsr.ptr, dsr.ld, causal, offset);
}

// ---- a mis-shaped call: one error naming both dimensions (shape_error.hpp) ----

template <class S, class Scale, class Mask>
    requires(!requires {
        requires matrix<std::remove_cvref_t<S>> && softmax_mask<Mask> &&
            writable<kernels::detail::element_of<S>>;
    })
auto softmax_columns(S&& s, Scale scale, Mask mask) noexcept
    -> decltype(detail::shape_error_of<in::softmax_columns>(detail::or_arguments<S, Scale, Mask>(
        detail::first_error(detail::check_matrix<role::S, S>(),
                            detail::check_writable<role::S, S>()))));

// With or without the mask, a mis-shaped call gets the same one error.
template <class A, class DA, class Scale, class DS, softmax_mask Mask = mask_bidirectional>
    requires(!requires {
        requires matrix<A> && softmax_backward_operands<A, DA, std::remove_cvref_t<DS>> &&
            writable<kernels::detail::element_of<DS>>;
    })
auto softmax_columns_backward(const A& a, const DA& da, Scale scale, DS&& ds,
                              Mask mask = {}) noexcept
    -> decltype(detail::shape_error_of<in::softmax_columns_backward>(
        detail::or_arguments<const A&, const DA&, Scale, DS>(detail::first_error(
            detail::check_matrix<role::A, const A&>(), detail::check_matrix<role::dA, const DA&>(),
            detail::check_matrix<role::dS, DS>(),
            detail::check_same_shape<role::dA, const DA&, role::A, const A&>(),
            detail::check_same_shape<role::dS, DS, role::A, const A&>(),
            detail::check_same_scalar<role::dA, const DA&, role::A, const A&>(),
            detail::check_same_scalar<role::dS, DS, role::A, const A&>(),
            detail::check_writable<role::dS, DS>()))));

}  // namespace typeformer
