// Mistake: the gradient of the attention weights passed transposed to softmax's backward.
// A = softmax(S) is (l_z, l_x) (one column per query position); dA must have A's shape, here it is
// (l_x, l_z).
// Fix: dA (l_z, l_x), e.g. Vᵀ·dṼ computed in that order.
// fixed: const mat<float, l_x<4>, l_z<8>>& dA => const mat<float, l_z<8>, l_x<4>>& dA
// covers: softmax_columns_backward(da a)
// expect: in::softmax_columns_backward
// first-error: dA_rows<typeformer::l_x<4>, A_rows<typeformer::l_z<8>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void scores_backward(const mat<float, l_z<8>, l_x<4>>& A,   // (l_z, l_x)
                     const mat<float, l_x<4>, l_z<8>>& dA,  // (l_x, l_z): transposed
                     mat<float, l_z<8>, l_x<4>>& dS) {      // (l_z, l_x)
    softmax_columns_backward(A, dA, 0.25f, dS);  // error here
}
