// Mistake: causal attention's softmax backward given a dS with fewer columns than A (the query
// count of another batch), with the forward's mask passed along.
// A = softmax(S) is (l_z, l_x); dS must have A's shape, here it is (l_z, l_x<6>).
// Fix: dS (l_z, l_x) of the same length type as A.
// fixed: mat<float, l_z<8>, l_x<6>>& dS => mat<float, l_z<8>, l_x<8>>& dS
// covers: softmax_columns_backward(ds a)
// expect: in::softmax_columns_backward
// first-error: dS_cols<typeformer::l_x<6>, A_cols<typeformer::l_x<8>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void causal_scores_backward(const mat<float, l_z<8>, l_x<8>>& A,   // (l_z, l_x)
                            const mat<float, l_z<8>, l_x<8>>& dA,  // (l_z, l_x)
                            mat<float, l_z<8>, l_x<6>>& dS) {      // (l_z, l_x<6>): too short
    softmax_columns_backward(A, dA, 0.25f, dS, mask_unidirectional{});  // error here
}
