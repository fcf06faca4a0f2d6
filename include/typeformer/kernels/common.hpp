// What the typed kernels check at their boundary, and how they reach raw storage.
//
// Every shape rule is a concept over plain types, defined directly with is_same_v so GCC's note
// is one level deep and prints the two dimensions (`same_shape<XShape, YShape>` fails as
//   the expression 'is_same_v<XShape, YShape> [with XShape = typeformer::shape<...>; ...]').
// The matrix-product rules (inner_dims_match, ...) live in gemm.hpp, next to their only user,
// so a product's diagnostic stays in one file.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "../config.hpp"
#include "../dim.hpp"
#include "../tensor.hpp"
#include "backend.hpp"

namespace typeformer::kernels::detail {
template <class X>
inline constexpr bool is_transposed_v = false;
template <class V>
inline constexpr bool is_transposed_v<transposed<V>> = true;
}  // namespace typeformer::kernels::detail

namespace typeformer {

// ---- shape rules ----

// Elementwise operands: the same dims in the same order (`shape<R, C>` or `shape<D>`).
template <class XShape, class YShape>
concept same_shape = std::is_same_v<XShape, YShape>;
// A per-row vector (bias, gamma, beta) has the matrix's row dim.
template <class VDim, class Rows>
concept vector_matches_rows = std::is_same_v<VDim, Rows>;
// A per-column vector (mean, rstd) has the matrix's column dim.
template <class VDim, class Cols>
concept vector_matches_cols = std::is_same_v<VDim, Cols>;
// Operands of one kernel share the scalar type (float with float, double with double).
template <class T, class U>
concept same_value_type = std::is_same_v<T, U>;
// An output must not be a const tensor or a view of const.
template <class ElementOfOutput>
concept writable = !std::is_const_v<ElementOfOutput>;

}  // namespace typeformer

namespace typeformer::kernels::detail {

template <class X>
using bare = std::remove_cvref_t<X>;

// An operand of a matrix product: a matrix, its view, or transpose(M).
template <class X>
struct operand_traits {
    using view_type = decltype(as_view(std::declval<const X&>()));
    using value_type = typename view_type::value_type;
    static constexpr bool is_transposed = false;
    static constexpr view_type stored(const X& x) noexcept { return as_view(x); }
};
template <class V>
struct operand_traits<transposed<V>> {
    using view_type = V;
    using value_type = typename V::value_type;
    static constexpr bool is_transposed = true;
    static constexpr view_type stored(const transposed<V>& x) noexcept { return x.m; }
};

template <class X>
using value_of = typename operand_traits<bare<X>>::value_type;
template <class X>
using rows_of = typename bare<X>::rows_dim;
template <class X>
using cols_of = typename bare<X>::cols_dim;
template <class X>
using dim_of = typename bare<X>::dim_type;

// The element type an output's view exposes (const T for a const tensor).
template <class X>
using element_of = std::remove_pointer_t<decltype(as_view(std::declval<X&>()).data())>;

template <class X>
using shape_of = typeformer::shape_of<X>;

// Raw column-major storage of a tensor: a vector is one column.
template <class P>
struct raw {
    P* ptr;
    std::size_t ld, rows, cols;
};
template <class X>
constexpr auto raw_of(X&& x) noexcept {
    auto v = as_view(x);
    using P = std::remove_pointer_t<decltype(v.data())>;
    if constexpr (matrix<decltype(v)>)
        return raw<P>{v.data(), v.stride(), v.rows(), v.cols()};
    else
        return raw<P>{v.data(), v.size() > 0 ? v.size() : 1, v.size(), 1};
}

}  // namespace typeformer::kernels::detail
