// Probes for the static tests: each asks "does this call compile?" as a concept, so a
// static_assert can demand both what must compile and what must be rejected.
//
// The requires-expressions sit inside concepts (templated entities) on purpose: a
// requires-expression outside a template whose expression is ill-formed makes the program
// ill-formed instead of evaluating to false. Parameters are lvalues of the given types
// (`requires(A a)`), as at a real call site; pass `const X` for a const operand.
#pragma once

#include <cstddef>

#include <typeformer/tensor.hpp>

namespace typeformer_static {

template <std::size_t h, class Y>
concept can_head = requires(Y y) {
    typeformer::head<h>(y);
};

template <class Y>
concept can_head_rt = requires(Y y) {
    typeformer::head(y, std::size_t{0});
};

template <class B>
concept can_head_of_vec = requires(B b) {
    typeformer::head_of_vec(b, std::size_t{0});
};

template <class R2, class C2, class M>
concept can_relabel = requires(M m) {
    typeformer::relabel<R2, C2>(m);
};

template <class D2, class V>
concept can_relabel_vec = requires(V v) {
    typeformer::relabel<D2>(v);
};

template <class M>
concept can_transpose = requires(M m) {
    typeformer::transpose(m);
};

template <class Src, class Dst>
concept can_copy = requires(Src s, Dst d) {
    typeformer::copy(s, d);
};

template <class X>
concept can_fill = requires(X x) {
    typeformer::fill(x, 0);
};

template <class X>
concept can_resize_cols = requires(X x) {
    x.resize_cols(std::size_t{1});
};

template <class X>
concept can_resize = requires(X x) {
    x.resize(std::size_t{1});
};

// Writing one element: X(0, 0) = 0 for a matrix, x[0] = 0 for a vector.
template <class X>
concept can_write_element = requires(X x) {
    x(0, 0) = 0;
}
|| requires(X x) {
    x[0] = 0;
};

}  // namespace typeformer_static
