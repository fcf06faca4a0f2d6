// Mistake: tied unembedding (W_u = W_eᵀ) writing its logits into a (d_e, l_x) matrix.
// W_eᵀ X has one row per vocabulary entry: (N_V, l_x).
// Fix: logits (N_V, l_x).
// fixed: mat<float, d_e<32>, l_x<8>>& logits => mat<float, N_V<64>, l_x<8>>& logits
// covers: nn::forward[tied_unembedding](logits te)
// expect: in::Algorithm_7_unembedding
// first-error: logits_rows<typeformer::d_e<32>, W_e_cols<typeformer::N_V<64>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void unembed(const tied_unembedding<float, N_V<64>, d_e<32>>& u,
             const token_embedding<float, d_e<32>, N_V<64>>& te,
             const mat<float, d_e<32>, l_x<8>>& X, mat<float, d_e<32>, l_x<8>>& logits) {
    nn::forward(u, te, X, logits);  // error here
}
