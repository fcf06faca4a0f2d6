// Mistake: Algorithm 7's probabilities written into a (d_e, l_x) buffer.
// P = softmax(W_u X) has W_u's N_V rows: one probability per token of the vocabulary, per
// position.
// Fix: a (N_V, l_x) P.
// fixed: mat<float, d_e<32>, l_x<8>>& P => mat<float, N_V<64>, l_x<8>>& P
// covers: nn::probabilities[unembedding](P p)
// expect: in::Algorithm_7_probabilities
// first-error: P_rows<typeformer::d_e<32>, W_u_rows<typeformer::N_V<64>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void predict(const unembedding<float, N_V<64>, d_e<32>>& u, const mat<float, d_e<32>, l_x<8>>& X,
             mat<float, d_e<32>, l_x<8>>& P) {
    nn::probabilities(u, X, P);  // error here
}
