// Mistake: the paper's own shape slip (Algorithm 9, ETransformer/BERT, lines 10–12).
// Line 10 maps the stream to d_f: X ← GELU(W_f X + b_f 1ᵀ) ∈ R^{d_f × ℓ}, and line 11 normalises it
// over d_f; but the parameters list W_u ∈ R^{N_V × d_e}, so line 12's P ← softmax(W_u X) multiplies
// W_u's d_e columns with X's d_f rows. With d_f ≠ d_e the product does not exist.
// Fix: W_u ∈ R^{N_V × d_f}, i.e. unembedding<float, N_V<32>, d_f<12>> (what ETransformer holds).
// gallery: 1
// fixed: unembedding<float, N_V<32>, d_e<8>>& u => unembedding<float, N_V<32>, d_f<12>>& u
// covers: nn::forward[unembedding](X p)
// expect: in::Algorithm_7_unembedding
// first-error: X_rows<typeformer::d_f<12>, W_u_cols<typeformer::d_e<8>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void unembed(const unembedding<float, N_V<32>, d_e<8>>& u,  // W_u (N_V, d_e), as the paper lists it
             const mat<float, d_f<12>, l_x<4>>& X,          // (d_f, l_x), after line 11
             mat<float, N_V<32>, l_x<4>>& logits) {         // (N_V, l_x)
    forward(u, X, logits);  // error here: 12: P ← softmax(W_u X)
}
