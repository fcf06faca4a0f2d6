// Bias over named dimensions.
//
//   add_bias(Y, b)        Y[:, t] += b          Y (R, C), b (R)
//   add_bias_grad(dY, db) db += Σ_t dY[:, t]    dY (R, C), db (R)
#pragma once

#include "common.hpp"
#include "diagnose.hpp"

namespace typeformer {

template <class Y, class B>
concept bias_operands = vector_matches_rows<typename B::dim_type, typename Y::rows_dim> &&
    same_value_type<kernels::detail::value_of<Y>, kernels::detail::value_of<B>>;

// Y[:, t] += b
template <class Y, class B>
    requires bias_operands<std::remove_cvref_t<Y>, B> && writable<kernels::detail::element_of<Y>>
constexpr void add_bias(Y&& y, const B& b) noexcept {
    const auto yr = kernels::detail::raw_of(y);
    const auto bv = as_view(b);
    TYPEFORMER_CHECK(bv.size() == yr.rows, "add_bias: b's extent differs from Y's rows");
    kernels::backend::add_bias(yr.rows, yr.cols, bv.data(), yr.ptr, yr.ld);
}

// db += Σ_t dY[:, t]
template <class DY, class DB>
    requires bias_operands<DY, std::remove_cvref_t<DB>> && writable<kernels::detail::element_of<DB>>
constexpr void add_bias_grad(const DY& dy, DB&& db) noexcept {
    const auto g = kernels::detail::raw_of(dy);
    const auto dbv = as_view(db);
    TYPEFORMER_CHECK(dbv.size() == g.rows, "add_bias_grad: db's extent differs from dY's rows");
    kernels::backend::add_bias_grad(g.rows, g.cols, g.ptr, g.ld, dbv.data());
}

// ---- a mis-shaped call: one error naming both dimensions (shape_error.hpp) ----

namespace kernels::detail {
// add_bias(Y, b): b has Y's rows; add_bias_grad(dY, db): db has dY's rows.
template <class RoleY, class RoleB, class Y, class B, class Out>
constexpr auto bias_error() {
    using namespace typeformer::detail;
    return or_arguments<Y, B>(first_error(
        check_matrix<RoleY, Y>(), check_vector<RoleB, B>(), check_same_rows<RoleB, B, RoleY, Y>(),
        check_same_scalar<RoleB, B, RoleY, Y>(),
        check_writable<std::conditional_t<std::is_same_v<Out, Y>, RoleY, RoleB>, Out>()));
}
}  // namespace kernels::detail

template <class Y, class B>
    requires(!requires {
        requires bias_operands<std::remove_cvref_t<Y>, B> &&
            writable<kernels::detail::element_of<Y>>;
    })
auto add_bias(Y&& y, const B& b) noexcept -> decltype(detail::shape_error_of<in::add_bias>(
    kernels::detail::bias_error<role::Y, role::b, Y, const B&, Y>()));
template <class DY, class DB>
    requires(!requires {
        requires bias_operands<DY, std::remove_cvref_t<DB>> &&
            writable<kernels::detail::element_of<DB>>;
    })
auto add_bias_grad(const DY& dy, DB&& db) noexcept
    -> decltype(detail::shape_error_of<in::add_bias_grad>(
        kernels::detail::bias_error<role::dY, role::db, const DY&, DB, DB>()));

}  // namespace typeformer
