// Mistake: the outer product q·kᵀ written with transpose of a vector.
// transpose tags a matrix for the products (Aᵀ·B, A·Bᵀ); a vec (d_attn) has no columns to swap. An
// outer product of two columns is a (d_attn, 1) matrix times a (1, d_attn) one.
// Fix: keep q and k as (d_attn, 1) matrices (mat<float, d_attn<16>, l_x<1>>), or write the loop.
// fixed: const vec<float, d_attn<16>>& k => const mat<float, d_attn<16>, l_x<1>>& k
// covers: transpose(m)
// expect: in::transpose
// first-error: X_is_not_a_matrix<typeformer::vec<float, typeformer::d_attn<16>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

auto key_query_outer(const vec<float, d_attn<16>>& k) {
    return transpose(k);  // error here
}
