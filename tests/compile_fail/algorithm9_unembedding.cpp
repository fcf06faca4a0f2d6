// Mistake: the paper's own shape slip (Algorithm 9, ETransformer/BERT, lines 10–12).
// Line 10 maps the stream to d_f: X ← GELU(W_f X + b_f 1ᵀ) ∈ R^{d_f × l}, but the parameters
// give W_u ∈ R^{N_V × d_e}, so line 12's P ← softmax(W_u X) pairs d_e with d_f. With d_f ≠ d_e
// it does not type-check (nor with d_f = d_e: the meanings differ); the fix is W_u ∈ R^{N_V × d_f},
// i.e. unembedding<float, N_V<32>, d_f<12>>.
// expect: d_e<8>, d_f<12>, N_V<32>, rows_are
// first-error: forward, d_e<8>, d_f<12>
// max-lines: 26
#include <typeformer/nn/unembedding.hpp>

using namespace typeformer;

void unembed(const unembedding<float, N_V<32>, d_e<8>>& u,  // W_u (N_V, d_e), as the paper lists it
             const mat<float, d_f<12>, l_x<4>>& X,          // (d_f, l_x), after line 11
             mat<float, N_V<32>, l_x<4>>& logits) {         // (N_V, l_x)
    forward(u, X, logits);  // error here: 12: P ← softmax(W_u X)
}
