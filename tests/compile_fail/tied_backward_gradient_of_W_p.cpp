// Mistake: the tied unembedding's backward accumulating ∂W_eᵀ into the positional embedding's gradient.
// With W_u = W_eᵀ the unembedding's weight gradient is the token embedding's (d_e, N_V), added to
// what Algorithm 1's backward gives it; W_p (d_e, l_max) is another tensor.
// Fix: the token embedding's gradient.
// fixed: positional_embedding<float, d_e<32>, l_max<32>>& dpe => TE& dpe
// covers: nn::backward[tied_unembedding](te_grads te)
// expect: in::Algorithm_7_unembedding_backward
// first-error: grads<typeformer::nn::positional_embedding<float, typeformer::d_e<32>, typeformer::l_max<32>, block<typeformer::nn::token_embedding<float, typeformer::d_e<32>, typeformer::N_V<64>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;
using TE = token_embedding<float, d_e<32>, N_V<64>>;

void back(const tied_unembedding<float, N_V<64>, d_e<32>>& u, const TE& te,
          const mat<float, d_e<32>, l_x<8>>& X, const mat<float, N_V<64>, l_x<8>>& dl,
          mat<float, d_e<32>, l_x<8>>& dX, positional_embedding<float, d_e<32>, l_max<32>>& dpe) {
    nn::backward(u, te, X, dl, dX, dpe);  // error here
}
