// Vectors and matrices over named dimensions.
//
//   vec<T, D>          owning, |D| entries (a bounded D: storage for its capacity, extent 0 until resized)
//   mat<T, R, C>       owning, column-major: column j is the contiguous run
//                      data()[j·ld, j·ld + rows()), so X[:, t] is one SIMD-friendly load
//   vec_view, mat_view non-owning; `const T` for read-only; a mat_view carries a leading
//                      dimension so one head's block of rows inside H·d_mid is a view too
//
// Owning tensors are aggregates (64-byte aligned, zero-initialised), so a whole
// parameter struct can be constant-initialised into flash, and sizeof is the
// exact cost in bytes. Matrices index as M(i, j), 0-based, like Eigen.
#pragma once

#include <array>
#include <cstddef>
#include <tuple>
#include <type_traits>

#include "config.hpp"
#include "dim.hpp"
#include "shape_error.hpp"

namespace typeformer {

inline constexpr std::size_t tensor_alignment = 64;

namespace detail {
// A tensor of other dimensions than X (or a matrix for a vector): what mat::operator= and
// vec::operator= answer with an error, defined at the end of this file.
template <class Y>
concept has_rows_and_cols = requires {
    typename Y::rows_dim;
    typename Y::cols_dim;
};
template <class Y, class X>
concept other_shape = (has_rows_and_cols<Y> || requires { typename Y::dim_type; }) && [] {
    if constexpr (has_rows_and_cols<X> && has_rows_and_cols<Y>)
        return !std::is_same_v<typename Y::rows_dim, typename X::rows_dim> ||
               !std::is_same_v<typename Y::cols_dim, typename X::cols_dim>;
    else if constexpr (!has_rows_and_cols<X> && !has_rows_and_cols<Y>)
        return !std::is_same_v<typename Y::dim_type, typename X::dim_type>;
    else
        return true;
}();
template <class Dst, class Src>
constexpr auto assign_error();
}  // namespace detail

template <class T, dimension D>
struct vec_view {
    using value_type = std::remove_const_t<T>;
    using dim_type = D;

    T* ptr = nullptr;
    std::size_t n = 0;

    constexpr std::size_t size() const noexcept { return n; }
    constexpr T* data() const noexcept { return ptr; }
    constexpr T& operator[](std::size_t i) const noexcept {
        TYPEFORMER_DEBUG_CHECK(i < n, "vec_view: index past the extent");
        return ptr[i];
    }
    constexpr T& operator()(std::size_t i) const noexcept { return (*this)[i]; }
    constexpr T* begin() const noexcept { return ptr; }
    constexpr T* end() const noexcept { return ptr + n; }
    constexpr operator vec_view<const T, D>() const noexcept requires(!std::is_const_v<T>) {
        return {ptr, n};
    }
};

template <class T, dimension R, dimension C>
struct mat_view {
    using value_type = std::remove_const_t<T>;
    using rows_dim = R;
    using cols_dim = C;

    T* ptr = nullptr;
    std::size_t ld = 0;  // distance between the starts of two columns
    std::size_t n_rows = 0;
    std::size_t n_cols = 0;

    constexpr std::size_t rows() const noexcept { return n_rows; }
    constexpr std::size_t cols() const noexcept { return n_cols; }
    constexpr std::size_t stride() const noexcept { return ld; }
    constexpr T* data() const noexcept { return ptr; }
    constexpr T& operator()(std::size_t i, std::size_t j) const noexcept {
        TYPEFORMER_DEBUG_CHECK(i < n_rows && j < n_cols, "mat_view: index past the extents");
        return ptr[i + j * ld];
    }
    // X[:, t]
    constexpr vec_view<T, R> col(std::size_t j) const noexcept { return {ptr + j * ld, n_rows}; }
    // X[:, 0:n] (n ≤ cols())
    constexpr mat_view first_cols(std::size_t n) const noexcept {
        TYPEFORMER_CHECK(n <= n_cols, "first_cols: more columns than the view has");
        return {ptr, ld, n_rows, n};
    }
    constexpr operator mat_view<const T, R, C>() const noexcept requires(!std::is_const_v<T>) {
        return {ptr, ld, n_rows, n_cols};
    }
};

template <class T, dimension D>
struct vec {
    using value_type = T;
    using dim_type = D;
    static constexpr std::size_t capacity = D::capacity;

    alignas(tensor_alignment) T elems[capacity]{};
    [[no_unique_address]] extent<D> ext{};

    constexpr std::size_t size() const noexcept { return ext.value(); }
    // Sets the run-time extent of a bounded vector.
    constexpr void resize(std::size_t n) noexcept requires bounded_dimension<D> {
        TYPEFORMER_CHECK(n <= capacity, "vec::resize: extent exceeds the dimension's capacity");
        ext.set(n);
    }
    constexpr T* data() noexcept { return elems; }
    constexpr const T* data() const noexcept { return elems; }
    constexpr T& operator[](std::size_t i) noexcept {
        TYPEFORMER_DEBUG_CHECK(i < size(), "vec: index past the extent");
        return elems[i];
    }
    constexpr const T& operator[](std::size_t i) const noexcept {
        TYPEFORMER_DEBUG_CHECK(i < size(), "vec: index past the extent");
        return elems[i];
    }
    constexpr T& operator()(std::size_t i) noexcept { return (*this)[i]; }
    constexpr const T& operator()(std::size_t i) const noexcept { return (*this)[i]; }
    constexpr T* begin() noexcept { return elems; }
    constexpr T* end() noexcept { return elems + size(); }
    constexpr const T* begin() const noexcept { return elems; }
    constexpr const T* end() const noexcept { return elems + size(); }

    constexpr vec_view<T, D> view() noexcept { return {elems, size()}; }
    constexpr vec_view<const T, D> view() const noexcept { return {elems, size()}; }
    constexpr operator vec_view<T, D>() noexcept { return view(); }
    constexpr operator vec_view<const T, D>() const noexcept { return view(); }

    // x = y between vectors of other dimensions: an error naming both (below; never defined).
    template <class Y>
        requires detail::other_shape<Y, vec>
    auto operator=(const Y& y)
        -> decltype(detail::shape_error_of<in::assign>(detail::assign_error<vec, Y>()));
};

template <class T, dimension R, dimension C>
struct mat {
    using value_type = T;
    using rows_dim = R;
    using cols_dim = C;
    static constexpr std::size_t row_capacity = R::capacity;
    static constexpr std::size_t col_capacity = C::capacity;
    static constexpr std::size_t ld = R::capacity;

    alignas(tensor_alignment) T elems[R::capacity * C::capacity]{};
    [[no_unique_address]] extent<R, 0> row_ext{};
    [[no_unique_address]] extent<C, 1> col_ext{};

    constexpr std::size_t rows() const noexcept { return row_ext.value(); }
    constexpr std::size_t cols() const noexcept { return col_ext.value(); }
    constexpr std::size_t stride() const noexcept { return ld; }
    // Sets the run-time extent of a bounded column dimension (a sequence length).
    constexpr void resize_cols(std::size_t n) noexcept requires bounded_dimension<C> {
        TYPEFORMER_CHECK(n <= C::capacity, "mat::resize_cols: extent exceeds the capacity");
        col_ext.set(n);
    }
    constexpr void resize_rows(std::size_t n) noexcept requires bounded_dimension<R> {
        TYPEFORMER_CHECK(n <= R::capacity, "mat::resize_rows: extent exceeds the capacity");
        row_ext.set(n);
    }
    constexpr T* data() noexcept { return elems; }
    constexpr const T* data() const noexcept { return elems; }
    constexpr T& operator()(std::size_t i, std::size_t j) noexcept {
        TYPEFORMER_DEBUG_CHECK(i < rows() && j < cols(), "mat: index past the extents");
        return elems[i + j * ld];
    }
    constexpr const T& operator()(std::size_t i, std::size_t j) const noexcept {
        TYPEFORMER_DEBUG_CHECK(i < rows() && j < cols(), "mat: index past the extents");
        return elems[i + j * ld];
    }
    // X[:, t]
    constexpr vec_view<T, R> col(std::size_t j) noexcept { return {elems + j * ld, rows()}; }
    constexpr vec_view<const T, R> col(std::size_t j) const noexcept {
        return {elems + j * ld, rows()};
    }

    constexpr mat_view<T, R, C> view() noexcept { return {elems, ld, rows(), cols()}; }
    constexpr mat_view<const T, R, C> view() const noexcept { return {elems, ld, rows(), cols()}; }
    constexpr operator mat_view<T, R, C>() noexcept { return view(); }
    constexpr operator mat_view<const T, R, C>() const noexcept { return view(); }

    // X = Y between matrices of other dimensions (the context Z over l_z given the stream over
    // l_x): an error naming both (below; never defined). copy(src, dst) copies between views.
    template <class Y>
        requires detail::other_shape<Y, mat>
    auto operator=(const Y& y)
        -> decltype(detail::shape_error_of<in::assign>(detail::assign_error<mat, Y>()));
};

// ---- what a function parameter may be: an owning tensor or a view of it ----

template <class X>
struct tensor_traits;  // undefined for non-tensors
template <class T, dimension D>
struct tensor_traits<vec<T, D>> {
    using value_type = T;
    using view_type = vec_view<T, D>;
    using const_view_type = vec_view<const T, D>;
};
template <class T, dimension D>
struct tensor_traits<vec_view<T, D>> {
    using value_type = std::remove_const_t<T>;
    using view_type = vec_view<T, D>;
    using const_view_type = vec_view<const T, D>;
};
template <class T, dimension R, dimension C>
struct tensor_traits<mat<T, R, C>> {
    using value_type = T;
    using view_type = mat_view<T, R, C>;
    using const_view_type = mat_view<const T, R, C>;
};
template <class T, dimension R, dimension C>
struct tensor_traits<mat_view<T, R, C>> {
    using value_type = std::remove_const_t<T>;
    using view_type = mat_view<T, R, C>;
    using const_view_type = mat_view<const T, R, C>;
};

template <class X>
concept matrix = requires {
    typename X::rows_dim;
    typename X::cols_dim;
};
template <class X>
concept vector = requires {
    typename X::dim_type;
};

template <class X>
using view_of = typename tensor_traits<std::remove_cvref_t<X>>::view_type;
template <class X>
using const_view_of = typename tensor_traits<std::remove_cvref_t<X>>::const_view_type;

// A view of any tensor (owning or not); const if the tensor is const.
template <class X>
constexpr auto as_view(X&& x) noexcept {
    using U = std::remove_cvref_t<X>;
    if constexpr (requires { x.view(); })
        return x.view();
    else
        return U(x);
}

// ---- transposition: a tag the matrix products read, never a copy ----

template <class V>
struct transposed {
    using rows_dim = typename V::cols_dim;
    using cols_dim = typename V::rows_dim;
    V m;  // the matrix whose transpose is meant
};
template <class M>
    requires matrix<std::remove_cvref_t<M>>  // M deduces as mat& for an lvalue
constexpr auto transpose(M&& m) noexcept {
    auto v = as_view(m);
    return transposed<decltype(v)>{v};
}

// ---- heads: one block of rows of an H·D stack (Algorithm 5, line 3) ----

template <std::size_t h, class Hd>
concept head_index_in_range = h < Hd::size;

// Y^h: rows [h·|D|, (h+1)·|D|) of Y ∈ R^{H·D × C}, as a (D, C) view.
template <class Y>
    requires matrix<std::remove_cvref_t<Y>> && is_prod_v<typename std::remove_cvref_t<Y>::rows_dim>
constexpr auto head(Y&& y, std::size_t h) noexcept {
    using P = typename std::remove_cvref_t<Y>::rows_dim;
    using D = typename P::inner;
    using C = typename std::remove_cvref_t<Y>::cols_dim;
    TYPEFORMER_CHECK(h < P::outer::size, "head: index past the number of heads");
    auto v = as_view(y);
    using E = std::remove_pointer_t<decltype(v.ptr)>;
    return mat_view<E, D, C>{v.ptr + h * D::size, v.ld, D::size, v.n_cols};
}
// The same with a compile-time index, checked against H.
template <std::size_t h, class Y>
    requires matrix<std::remove_cvref_t<Y>> &&
        head_index_in_range<h, typename std::remove_cvref_t<Y>::rows_dim::outer>
constexpr auto head(Y&& y) noexcept {
    return head(y, h);
}
// b^h: entries [h·|D|, (h+1)·|D|) of b ∈ R^{H·D}.
template <class B>
    requires vector<std::remove_cvref_t<B>> && is_prod_v<typename std::remove_cvref_t<B>::dim_type>
constexpr auto head_of_vec(B&& b, std::size_t h) noexcept {
    using P = typename std::remove_cvref_t<B>::dim_type;
    using D = typename P::inner;
    TYPEFORMER_CHECK(h < P::outer::size, "head: index past the number of heads");
    auto v = as_view(b);
    using E = std::remove_pointer_t<decltype(v.ptr)>;
    return vec_view<E, D>{v.ptr + h * D::size, D::size};
}

// [Y^1; …; Y^H] → the H blocks as (D, C) views: the split of Algorithm 5, line 3, without a copy.
template <class Y>
    requires matrix<std::remove_cvref_t<Y>> && is_prod_v<typename std::remove_cvref_t<Y>::rows_dim>
constexpr auto split_heads(Y&& y) noexcept {
    using P = typename std::remove_cvref_t<Y>::rows_dim;
    std::array<decltype(head(y, 0)), P::outer::size> parts{};
    for (std::size_t h = 0; h < P::outer::size; ++h)
        parts[h] = head(y, h);
    return parts;
}

// What concat_heads needs: H blocks of D rows stack into H·D, and the column dims agree.
template <class Parts, class Y>
concept stacks_into = std::is_same_v < prod < H<std::tuple_size_v<Parts>>,
typename Parts::value_type::rows_dim >,
    typename Y::rows_dim >
        &&std::is_same_v<typename Parts::value_type::cols_dim, typename Y::cols_dim>;

// Y ← [Y^1; …; Y^H] (a copy, for blocks computed elsewhere); extents must agree.
template <class Part, std::size_t Hn, class Y>
    requires stacks_into<std::array<Part, Hn>, std::remove_cvref_t<Y>>
constexpr void concat_heads(const std::array<Part, Hn>& parts, Y&& y) noexcept {
    for (std::size_t h = 0; h < Hn; ++h) {
        auto dst = head(y, h);
        const auto& src = parts[h];
        TYPEFORMER_CHECK(src.rows() == dst.rows() && src.cols() == dst.cols(),
                         "concat_heads: a block's extents differ from its place in Y");
        for (std::size_t j = 0; j < dst.cols(); ++j)
            for (std::size_t i = 0; i < dst.rows(); ++i)
                dst(i, j) = src(i, j);
    }
}

// ---- relabel: the one explicit way to change a dimension's meaning ----

template <dimension R2, dimension C2, class M>
    requires matrix<std::remove_cvref_t<M>> &&
        relabel_compatible<typename std::remove_cvref_t<M>::rows_dim, R2> &&
        relabel_compatible<typename std::remove_cvref_t<M>::cols_dim, C2>
constexpr auto relabel(M&& m) noexcept {
    auto v = as_view(m);
    using E = std::remove_pointer_t<decltype(v.ptr)>;
    return mat_view<E, R2, C2>{v.ptr, v.ld, v.n_rows, v.n_cols};
}
template <dimension D2, class V>
    requires vector<std::remove_cvref_t<V>> &&
        relabel_compatible<typename std::remove_cvref_t<V>::dim_type, D2>
constexpr auto relabel(V&& x) noexcept {
    auto v = as_view(x);
    using E = std::remove_pointer_t<decltype(v.ptr)>;
    return vec_view<E, D2>{v.ptr, v.n};
}

// ---- fill and copy ----

// X's elements can be assigned: not a const tensor, not a view of const (checked at the call).
template <class X>
concept writable_tensor =
    !std::is_const_v<std::remove_pointer_t<decltype(as_view(std::declval<X&>()).data())>>;

template <class X>
    requires writable_tensor<X>
constexpr void fill(X&& x,
                    typename tensor_traits<std::remove_cvref_t<X>>::value_type value) noexcept {
    auto v = as_view(x);
    if constexpr (matrix<decltype(v)>) {
        for (std::size_t j = 0; j < v.cols(); ++j)
            for (std::size_t i = 0; i < v.rows(); ++i)
                v(i, j) = value;
    } else {
        for (std::size_t i = 0; i < v.size(); ++i)
            v[i] = value;
    }
}

// The dimensions of a tensor as one type: shape<R, C> for a matrix, shape<D> for a vector.
template <class... Dims>
struct shape {};
namespace detail {
template <class X>
struct shape_of_impl;
template <matrix X>
struct shape_of_impl<X> {
    using type = shape<typename X::rows_dim, typename X::cols_dim>;
};
template <vector X>
struct shape_of_impl<X> {
    using type = shape<typename X::dim_type>;
};
}  // namespace detail
template <class X>
using shape_of = typename detail::shape_of_impl<std::remove_cvref_t<X>>::type;

// Same dimensions in the same order; one check, so a failure's note names both shapes.
template <class A, class B>
concept same_shape_type = std::is_same_v<shape_of<A>, shape_of<B>>;

// dst ← src; both have the same dimensions, and the same run-time extents.
template <class Src, class Dst>
    requires same_shape_type<std::remove_cvref_t<Src>, std::remove_cvref_t<Dst>> &&
        writable_tensor<Dst>
constexpr void copy(const Src& src, Dst&& dst) noexcept {
    auto s = as_view(src);
    auto d = as_view(dst);
    if constexpr (matrix<decltype(s)>) {
        TYPEFORMER_CHECK(s.rows() == d.rows() && s.cols() == d.cols(), "copy: extents differ");
        for (std::size_t j = 0; j < s.cols(); ++j)
            for (std::size_t i = 0; i < s.rows(); ++i)
                d(i, j) = s(i, j);
    } else {
        TYPEFORMER_CHECK(s.size() == d.size(), "copy: extents differ");
        for (std::size_t i = 0; i < s.size(); ++i)
            d[i] = s[i];
    }
}

// ---- a mis-shaped call: one error naming both dimensions (shape_error.hpp) ----

namespace detail {
// relabel keeps sizes, and fixed stays fixed (a bounded length has a run-time extent).
template <class From, class To>
constexpr auto relabel_error() {
    if constexpr (!relabel_compatible<From, To>)
        return what<relabel_from<From>, relabel_to<To>>{};
    else
        return what<>{};
}
// copy(src, dst): dst has src's dimensions (rows, then columns), and can be written.
template <class Src, class Dst>
constexpr auto copy_error() {
    using S = std::remove_cvref_t<Src>;
    using D = std::remove_cvref_t<Dst>;
    if constexpr (!(matrix<S> || vector<S>) || !(matrix<D> || vector<D>) ||
                  matrix<S> != matrix<D>) {
        return what<arguments<S, D>>{};
    } else if constexpr (matrix<S>) {
        if constexpr (!std::is_same_v<typename S::rows_dim, typename D::rows_dim>)
            return what<dst_rows<typename D::rows_dim>, src_rows<typename S::rows_dim>>{};
        else if constexpr (!std::is_same_v<typename S::cols_dim, typename D::cols_dim>)
            return what<dst_cols<typename D::cols_dim>, src_cols<typename S::cols_dim>>{};
        else
            return what<dst_is_read_only<D>>{};
    } else if constexpr (!std::is_same_v<typename S::dim_type, typename D::dim_type>) {
        return what<dst_rows<typename D::dim_type>, src_rows<typename S::dim_type>>{};
    } else {
        return what<dst_is_read_only<D>>{};
    }
}
// dst = src between tensors: dst has src's dimensions (X = Y reads "X's are Y's").
template <class Dst, class Src>
constexpr auto assign_error() {
    return copy_error<Src, Dst&>();
}
}  // namespace detail

template <dimension R2, dimension C2, class M>
    requires(matrix<std::remove_cvref_t<M>> &&
             !(relabel_compatible<typename std::remove_cvref_t<M>::rows_dim, R2> &&
               relabel_compatible<typename std::remove_cvref_t<M>::cols_dim, C2>))
auto relabel(M&& m) noexcept -> decltype(detail::shape_error_of<in::relabel>(
    detail::first_error(detail::relabel_error<typename std::remove_cvref_t<M>::rows_dim, R2>(),
                        detail::relabel_error<typename std::remove_cvref_t<M>::cols_dim, C2>())));
template <dimension D2, class V>
    requires(vector<std::remove_cvref_t<V>> &&
             !relabel_compatible<typename std::remove_cvref_t<V>::dim_type, D2>)
auto relabel(V&& x) noexcept -> decltype(detail::shape_error_of<in::relabel>(
    detail::relabel_error<typename std::remove_cvref_t<V>::dim_type, D2>()));

template <std::size_t h, class Y>
    requires(
        matrix<std::remove_cvref_t<Y>>&& is_prod_v<typename std::remove_cvref_t<Y>::rows_dim> &&
        !head_index_in_range<h, typename std::remove_cvref_t<Y>::rows_dim::outer>)
auto head(Y&& y) noexcept -> decltype(detail::shape_error_of<in::head>(
    detail::what<head_index<h>, heads<typename std::remove_cvref_t<Y>::rows_dim::outer>>{}));

template <class Src, class Dst>
    requires(!requires {
        requires same_shape_type<std::remove_cvref_t<Src>, std::remove_cvref_t<Dst>> &&
            writable_tensor<Dst>;
    })
auto copy(const Src& src, Dst&& dst) noexcept
    -> decltype(detail::shape_error_of<in::copy>(detail::copy_error<Src, Dst>()));

namespace detail {
template <class X>
concept tensor_operand = matrix<std::remove_cvref_t<X>> || vector<std::remove_cvref_t<X>>;
// A stack of heads: rows (a matrix's) or entries (a vector's) prod<H<n>, D>.
template <class Role, class X>
constexpr auto heads_error() {
    using U = std::remove_cvref_t<X>;
    if constexpr (matrix<U>)
        return what<typename Role::template rows<typename U::rows_dim>, needed<stacked_heads>>{};
    else if constexpr (vector<U>)
        return what<typename Role::template rows<typename U::dim_type>, needed<stacked_heads>>{};
    else
        return what<arguments<U>>{};
}
// concat_heads(parts, Y): Y's rows are H·(a part's rows), its columns a part's columns.
template <class Part, std::size_t Hn, class Y>
constexpr auto concat_heads_error() {
    using U = std::remove_cvref_t<Y>;
    if constexpr (!matrix<U> || !matrix<Part>)
        return what<arguments<std::array<Part, Hn>, U>>{};
    else if constexpr (!std::is_same_v<typename U::rows_dim, prod<H<Hn>, typename Part::rows_dim>>)
        return what<Y_rows<typename U::rows_dim>, needed<prod<H<Hn>, typename Part::rows_dim>>>{};
    else
        return what<Y_cols<typename U::cols_dim>, X_cols<typename Part::cols_dim>>{};
}
}  // namespace detail

template <class M>
    requires(!matrix<std::remove_cvref_t<M>>)
auto transpose(M&& m) noexcept -> decltype(detail::shape_error_of<in::transpose>(
    detail::what<X_is_not_a_matrix<std::remove_cvref_t<M>>>{}));
template <class Y>
    requires(matrix<std::remove_cvref_t<Y>> &&
             !is_prod_v<typename std::remove_cvref_t<Y>::rows_dim>)
auto head(Y&& y, std::size_t h) noexcept
    -> decltype(detail::shape_error_of<in::head>(detail::heads_error<role::Y, Y>()));
template <std::size_t h, class Y>
    requires(matrix<std::remove_cvref_t<Y>> &&
             !is_prod_v<typename std::remove_cvref_t<Y>::rows_dim>)
auto head(Y&& y) noexcept
    -> decltype(detail::shape_error_of<in::head>(detail::heads_error<role::Y, Y>()));
template <class B>
    requires(vector<std::remove_cvref_t<B>> &&
             !is_prod_v<typename std::remove_cvref_t<B>::dim_type>)
auto head_of_vec(B&& b, std::size_t h) noexcept
    -> decltype(detail::shape_error_of<in::head_of_vec>(detail::heads_error<role::b, B>()));
template <class Y>
    requires(detail::tensor_operand<Y> && !requires {
        requires matrix<std::remove_cvref_t<Y>> &&
            is_prod_v<typename std::remove_cvref_t<Y>::rows_dim>;
    })
auto split_heads(Y&& y) noexcept
    -> decltype(detail::shape_error_of<in::split_heads>(detail::heads_error<role::Y, Y>()));
template <class Part, std::size_t Hn, class Y>
    requires(!stacks_into<std::array<Part, Hn>, std::remove_cvref_t<Y>>)
auto concat_heads(const std::array<Part, Hn>& parts, Y&& y) noexcept
    -> decltype(detail::shape_error_of<in::concat_heads>(
        detail::concat_heads_error<Part, Hn, Y>()));
template <class X, class V>
    requires(detail::tensor_operand<X> && !writable_tensor<X>)
auto fill(X&& x, V value) noexcept -> decltype(detail::shape_error_of<in::fill>(
    detail::what<X_is_read_only<std::remove_cvref_t<X>>>{}));

}  // namespace typeformer
