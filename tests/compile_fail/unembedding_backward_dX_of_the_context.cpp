// Mistake: Algorithm 7's backward writing ∂X into a buffer over the context length.
// ∂X = W_uᵀ ∂logits has the columns of the sequence that was unembedded, l_x.
// Fix: a (d_e, l_x) ∂X.
// fixed: mat<float, d_e<32>, l_z<8>>& dX => mat<float, d_e<32>, l_x<8>>& dX
// covers: nn::backward[unembedding](dX X)
// expect: in::Algorithm_7_unembedding_backward
// first-error: dX_cols<typeformer::l_z<8>, X_cols<typeformer::l_x<8>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;
using U = unembedding<float, N_V<64>, d_e<32>>;

void back(const U& u, const mat<float, d_e<32>, l_x<8>>& X, const mat<float, N_V<64>, l_x<8>>& dl,
          mat<float, d_e<32>, l_z<8>>& dX, U& grads) {
    nn::backward(u, X, dl, dX, grads);  // error here
}
