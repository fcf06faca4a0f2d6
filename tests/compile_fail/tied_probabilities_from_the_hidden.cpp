// Mistake: the tied unembedding (W_u = W_eᵀ) applied to the MLP's hidden activations.
// W_eᵀ (N_V, d_e) multiplies the final stream X̃ (d_e, ℓ); the hidden activations have d_mlp rows.
// Fix: the final layer norm's output (d_e, l_x).
// fixed: const mat<float, d_mlp<128>, l_x<8>>& H => const mat<float, d_e<32>, l_x<8>>& H
// covers: nn::probabilities[tied_unembedding](X te)
// expect: in::Algorithm_7_probabilities
// first-error: X_rows<typeformer::d_mlp<128>, W_e_rows<typeformer::d_e<32>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void predict(const tied_unembedding<float, N_V<64>, d_e<32>>& u,
             const token_embedding<float, d_e<32>, N_V<64>>& te,
             const mat<float, d_mlp<128>, l_x<8>>& H, mat<float, N_V<64>, l_x<8>>& P) {
    nn::probabilities(u, te, H, P);  // error here
}
