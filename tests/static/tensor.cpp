// Static tests of tensor.hpp: tensor types over named dims, views, heads, relabel, transpose,
// bounded lengths, layout (sizeof, alignment) and constant initialisation. Passes by compiling.
#include <cstddef>
#include <type_traits>

#include <typeformer/tensor.hpp>

#include "probes.hpp"

namespace {
using namespace typeformer;
using namespace typeformer_static;

// Shapes used below (sizes are small and pairwise distinct where it matters).
using X_t = mat<float, d_e<8>, l_x<16>>;      // (d_e, l_x)
using Z_t = mat<float, d_e<8>, l_z<16>>;      // (d_e, l_z)
using Q_t = mat<float, d_attn<64>, l_x<16>>;  // (d_attn, l_x)
using V_t = mat<float, d_mid<64>, l_x<16>>;   // (d_mid, l_x)   same sizes as Q_t, other meaning
using Hd = prod<H<4>, d_mid<16>>;             // H·d_mid = 64
using Y_t = mat<float, Hd, l_x<16>>;          // (H·d_mid, l_x), Algorithm 5 line 3's stack
using b_t = vec<float, Hd>;                   // (H·d_mid)

// ---- same sizes, different meaning: different types, no conversion, no copy ----
static_assert(!std::is_same_v<Q_t, V_t>);
static_assert(!std::is_convertible_v<Q_t&, mat_view<float, d_mid<64>, l_x<16>>>);
static_assert(!std::is_convertible_v<mat_view<float, d_attn<64>, l_x<16>>,
                                     mat_view<float, d_mid<64>, l_x<16>>>);
static_assert(!std::is_convertible_v<vec<float, d_attn<64>>&, vec_view<float, d_mid<64>>>);
static_assert(can_copy<const Q_t, Q_t>);
static_assert(!can_copy<const Q_t, V_t>);
static_assert(can_copy<const X_t, mat_view<float, d_e<8>, l_x<16>>>);
static_assert(!can_copy<const X_t, Z_t>);  // l_x is not l_z, even at equal capacity
static_assert(!can_copy<const Z_t, X_t>);
static_assert(!can_copy<const vec<float, d_attn<64>>, vec<float, d_mid<64>>>);
static_assert(!can_copy<const X_t, vec<float, d_e<8>>>);  // a matrix is not a vector

// ---- the types a tensor exposes ----
static_assert(std::is_same_v<X_t::rows_dim, d_e<8>> && std::is_same_v<X_t::cols_dim, l_x<16>>);
static_assert(std::is_same_v<b_t::dim_type, Hd>);
static_assert(matrix<X_t> && !vector<X_t> && vector<b_t> && !matrix<b_t>);
static_assert(matrix<mat_view<const float, d_e<8>, l_x<16>>>);
static_assert(std::is_same_v<decltype(std::declval<X_t&>().col(0)), vec_view<float, d_e<8>>>);
static_assert(
    std::is_same_v<decltype(std::declval<const X_t&>().col(0)), vec_view<const float, d_e<8>>>);
static_assert(std::is_same_v<view_of<X_t>, mat_view<float, d_e<8>, l_x<16>>>);
static_assert(std::is_same_v<const_view_of<X_t>, mat_view<const float, d_e<8>, l_x<16>>>);
static_assert(
    std::is_same_v<decltype(as_view(std::declval<X_t&>())), mat_view<float, d_e<8>, l_x<16>>>);
static_assert(std::is_same_v<decltype(as_view(std::declval<const X_t&>())),
                             mat_view<const float, d_e<8>, l_x<16>>>);

// ---- views convert to const views, never back; owning tensors to the views they allow ----
using Xv = mat_view<float, d_e<8>, l_x<16>>;
using Xcv = mat_view<const float, d_e<8>, l_x<16>>;
static_assert(std::is_convertible_v<Xv, Xcv>);
static_assert(!std::is_convertible_v<Xcv, Xv>);
static_assert(!std::is_constructible_v<Xv, Xcv>);
static_assert(std::is_convertible_v<X_t&, Xv> && std::is_convertible_v<X_t&, Xcv>);
static_assert(std::is_convertible_v<const X_t&, Xcv>);
static_assert(!std::is_convertible_v<const X_t&, Xv>);
static_assert(std::is_convertible_v<vec_view<float, d_e<8>>, vec_view<const float, d_e<8>>>);
static_assert(!std::is_convertible_v<vec_view<const float, d_e<8>>, vec_view<float, d_e<8>>>);
static_assert(!std::is_convertible_v<const vec<float, d_e<8>>&, vec_view<float, d_e<8>>>);
// a const view's elements cannot be written; a mutable view's can
static_assert(can_write_element<Xv> && !can_write_element<Xcv>);
static_assert(can_write_element<X_t> && !can_write_element<const X_t>);
static_assert(can_write_element<vec_view<float, d_e<8>>>);
static_assert(!can_write_element<vec_view<const float, d_e<8>>>);
// copy's destination must be writable, checked at the call (not by an assignment deep in its body)
static_assert(!can_copy<const X_t, Xcv>);
static_assert(!can_copy<const X_t, const X_t>);
static_assert(can_fill<X_t> && can_fill<Xv> && !can_fill<Xcv> && !can_fill<const X_t>);

// ---- heads: Y^h of Y ∈ R^{H·d_mid × l_x} is a (d_mid, l_x) view, h < H checked ----
static_assert(
    std::is_same_v<decltype(head<0>(std::declval<Y_t&>())), mat_view<float, d_mid<16>, l_x<16>>>);
static_assert(std::is_same_v<decltype(head<3>(std::declval<const Y_t&>())),
                             mat_view<const float, d_mid<16>, l_x<16>>>);
static_assert(std::is_same_v<decltype(head(std::declval<Y_t&>(), std::size_t{2})),
                             mat_view<float, d_mid<16>, l_x<16>>>);
static_assert(std::is_same_v<decltype(head_of_vec(std::declval<b_t&>(), std::size_t{1})),
                             vec_view<float, d_mid<16>>>);
static_assert(std::is_same_v<decltype(head_of_vec(std::declval<const b_t&>(), std::size_t{1})),
                             vec_view<const float, d_mid<16>>>);
static_assert(can_head<0, Y_t> && can_head<3, Y_t> && can_head<3, const Y_t>);
static_assert(!can_head<4, Y_t>);                       // h = H is one past the last head
static_assert(!can_head<0, Q_t> && !can_head_rt<Q_t>);  // d_attn<64> is not a stack of heads
static_assert(can_head_rt<Y_t> && can_head_rt<mat_view<const float, Hd, l_x<16>>>);
static_assert(can_head_of_vec<b_t> && !can_head_of_vec<vec<float, d_mid<64>>>);
// head views are written through (the W_q block of one head is a view of the stack)
static_assert([] {
    mat<int, prod<H<2>, d_mid<2>>, d_x<3>> W;  // rows: head 0 = {0, 1}, head 1 = {2, 3}
    auto W1 = head<1>(W);
    W1(1, 2) = 7;  // row 3, column 2
    return W(3, 2) == 7 && W1.rows() == 2 && W1.cols() == 3 && W1.stride() == 4;
}());

// ---- relabel: only between equal sizes, and it is the only way to change a meaning ----
static_assert(can_relabel<d_mid<64>, l_x<16>, Q_t>);  // d_attn<64> → d_mid<64>
static_assert(can_relabel<d_out<64>, l_x<16>, Y_t>);  // concat of heads → d_out
static_assert(can_relabel<d_e<8>, l_z<16>, X_t>);     // l_x<16> → l_z<16>
static_assert(can_relabel<d_e<8>, l_z<16>, const X_t>);
static_assert(!can_relabel<d_mid<32>, l_x<16>, Q_t>);  // 64 rows are not 32
static_assert(!can_relabel<d_e<8>, l_z<8>, X_t>);      // capacity 16 is not 8
static_assert(!can_relabel<d_e<8>, d_x<16>, X_t>);     // a bounded length is not a fixed dim
static_assert(std::is_same_v<decltype(relabel<d_mid<64>, l_x<16>>(std::declval<Q_t&>())),
                             mat_view<float, d_mid<64>, l_x<16>>>);
static_assert(std::is_same_v<decltype(relabel<d_mid<64>, l_x<16>>(std::declval<const Q_t&>())),
                             mat_view<const float, d_mid<64>, l_x<16>>>);
static_assert(can_relabel_vec<d_out<64>, b_t> && !can_relabel_vec<d_out<32>, b_t>);
static_assert(
    std::is_same_v<decltype(relabel<d_out<64>>(std::declval<b_t&>())), vec_view<float, d_out<64>>>);

// ---- transpose: a tag with swapped dims over a view, never a copy ----
using W_t = mat<float, d_attn<64>, d_x<8>>;  // W_q (d_attn, d_x)
static_assert(can_transpose<W_t> && can_transpose<const W_t> &&
              can_transpose<mat_view<float, d_attn<64>, d_x<8>>>);
static_assert(!can_transpose<vec<float, d_e<8>>>);
using Wt_t = decltype(transpose(std::declval<W_t&>()));
static_assert(std::is_same_v<Wt_t, transposed<mat_view<float, d_attn<64>, d_x<8>>>>);
static_assert(std::is_same_v<Wt_t::rows_dim, d_x<8>> && std::is_same_v<Wt_t::cols_dim, d_attn<64>>);
static_assert(std::is_same_v<decltype(transpose(std::declval<const W_t&>())),
                             transposed<mat_view<const float, d_attn<64>, d_x<8>>>>);
static_assert(sizeof(Wt_t) == sizeof(mat_view<float, d_attn<64>, d_x<8>>));  // just the view

// ---- bounded lengths: capacity in the type, extent at run time ----
static_assert(can_resize_cols<X_t> && !can_resize_cols<W_t>);  // only a bounded dim resizes
static_assert(can_resize<vec<float, l_x<16>>> && !can_resize<vec<float, d_e<8>>>);
static_assert(X_t::col_capacity == 16 && X_t::row_capacity == 8 && X_t::ld == 8);
static_assert([] {
    X_t X;
    const bool starts_empty = X.cols() == 0;  // extent 0 until resized
    X.resize_cols(3);
    auto v = X.view();
    return starts_empty && X.cols() == 3 && X.rows() == 8 && v.cols() == 3 &&
           X.col(2).size() == 8 && v.first_cols(2).cols() == 2;
}());

// ---- layout: sizeof is the element bytes, rounded up to the 64-byte alignment ----
// Rule: alignof(vec/mat) == 64 and, for tensors over fixed dims,
//   sizeof == round_up(capacity · sizeof(T), 64);
// a bounded dim adds its run-time extent (one size_t after the elements) before the rounding.
// (Not asserted: mat<T, D, D> over one fixed dim twice is 64 bytes larger today, because its two
// empty extent members have the same type and need distinct addresses.)
constexpr std::size_t round_up(std::size_t n, std::size_t a) {
    return (n + a - 1) / a * a;
}
static_assert(tensor_alignment == 64);
static_assert(alignof(vec<float, d_e<3>>) == 64 && alignof(mat<double, d_e<3>, d_x<5>>) == 64);
static_assert(sizeof(vec<float, d_e<16>>) == 16 * sizeof(float));                       // exact
static_assert(sizeof(vec<float, d_e<3>>) == 64);                                        // padded
static_assert(sizeof(vec<double, d_e<17>>) == round_up(17 * sizeof(double), 64));       // 192
static_assert(sizeof(mat<float, d_e<4>, d_x<4>>) == 4 * 4 * sizeof(float));             // exact
static_assert(sizeof(mat<float, d_e<5>, d_x<5>>) == round_up(25 * sizeof(float), 64));  // 128
static_assert(sizeof(mat<float, d_e<4>, d_e<4>>) == 4 * 4 * sizeof(float));  // square: no padding
static_assert(sizeof(mat<double, Hd, d_e<8>>) == 64 * 8 * sizeof(double));   // 4096
static_assert(sizeof(mat<float, d_attn<64>, d_x<8>>) == 64 * 8 * sizeof(float));
// bounded: elements, then the extent
static_assert(sizeof(vec<float, l_x<3>>) == 64);  // 12 + pad + 8
static_assert(sizeof(vec<float, l_x<16>>) == round_up(64 + sizeof(std::size_t), 64));  // 128
static_assert(sizeof(mat<float, d_e<4>, l_x<16>>) ==
              round_up(4 * 16 * 4 + sizeof(std::size_t), 64));
static_assert(sizeof(mat<float, l_x<4>, l_z<4>>) == round_up(16 * 4 + 2 * sizeof(std::size_t), 64));
// views are a pointer and extents, whatever the capacity
static_assert(sizeof(mat_view<float, d_e<384>, l_x<1024>>) ==
              sizeof(void*) + 3 * sizeof(std::size_t));
static_assert(sizeof(vec_view<float, d_e<384>>) == sizeof(void*) + sizeof(std::size_t));

// ---- owning tensors are aggregates, constant-initialisable: they can live in flash ----
static_assert(std::is_aggregate_v<mat<float, d_e<2>, d_x<3>>> &&
              std::is_aggregate_v<vec<float, d_e<2>>>);
static_assert(std::is_trivially_copyable_v<mat<float, d_e<2>, d_x<3>>>);
static_assert(std::is_trivially_copyable_v<mat<float, d_e<2>, l_x<3>>>);
static_assert(std::is_standard_layout_v<mat<float, d_e<2>, d_x<3>>>);
// column-major: the initialiser lists columns one after the other
constexpr mat<float, d_e<2>, d_x<3>> W_flash{{1, 2, 3, 4, 5, 6}};  // (d_e, d_x)
static_assert(W_flash(0, 0) == 1 && W_flash(1, 0) == 2 && W_flash(0, 2) == 5 && W_flash(1, 2) == 6);
static_assert(W_flash.col(1)[1] == 4);
// a parameter struct of tensors is an aggregate too, with the same property
struct tiny_params {
    mat<float, d_attn<2>, d_x<3>> W_q;  // (d_attn, d_x)
    vec<float, d_attn<2>> b_q;          // (d_attn)
};
constexpr tiny_params theta{{{1, 2, 3, 4, 5, 6}}, {{7, 8}}};
static_assert(std::is_aggregate_v<tiny_params>);
static_assert(theta.W_q(1, 1) == 4 && theta.b_q[1] == 8);
[[maybe_unused]] constinit const mat<float, d_e<2>, d_x<3>> W_rom{
    {1, 2, 3, 4, 5, 6}};  // in .rodata
// zero-initialised by default, also in a constant expression
static_assert([] {
    vec<double, d_e<5>> v;
    for (double x : v)
        if (x != 0)
            return false;
    return v.size() == 5;
}());
// a bounded tensor initialised with an extent
constexpr vec<float, l_x<4>> x_rom{{1, 2}, {2}};
static_assert(x_rom.size() == 2 && x_rom[1] == 2);

// ---- fill and copy in constant expressions (the runtime extent is respected) ----
static_assert([] {
    mat<int, d_e<2>, l_x<4>> A, B;
    A.resize_cols(3);
    B.resize_cols(3);
    fill(A, 5);
    copy(A, B);
    return B(1, 2) == 5 && B.elems[1 + 3 * B.ld] == 0;  // column 3 is past the extent: untouched
}());

}  // namespace

// ---- split_heads / concat_heads: the vertical stacking of Algorithm 5, line 3, both ways ----
namespace split_concat {
using Y_t = mat<float, prod<H<2>, d_mid<2>>, d_e<3>>;  // (H·d_mid, d_e)
using part_t = mat_view<float, d_mid<2>, d_e<3>>;
static_assert(std::is_same_v<decltype(split_heads(std::declval<Y_t&>())), std::array<part_t, 2>>);
static_assert(std::is_same_v<decltype(split_heads(std::declval<const Y_t&>())),
                             std::array<mat_view<const float, d_mid<2>, d_e<3>>, 2>>);
static_assert([] {
    Y_t Y{}, Y2{};
    for (std::size_t j = 0; j < 3; ++j)
        for (std::size_t i = 0; i < 4; ++i)
            Y(i, j) = float(10 * i + j);
    auto parts = split_heads(Y);  // views, no copy: block 1 row 0 is Y's row 2
    const bool views = parts[1](0, 2) == Y(2, 2) && &parts[1](0, 0) == &Y(2, 0);
    concat_heads(parts, Y2);
    bool same = true;
    for (std::size_t j = 0; j < 3; ++j)
        for (std::size_t i = 0; i < 4; ++i)
            same = same && Y2(i, j) == Y(i, j);
    return views && same;
}());
template <class Parts, class Y>
concept can_concat = requires(const Parts& p, Y& y) {
    concat_heads(p, y);
};
static_assert(can_concat<std::array<part_t, 2>, Y_t>);
static_assert(!can_concat<std::array<part_t, 3>, Y_t>);  // three heads do not stack into H<2>
static_assert(
    !can_concat<std::array<mat_view<float, d_attn<2>, d_e<3>>, 2>, Y_t>);  // d_attn ≠ d_mid
}  // namespace split_concat
