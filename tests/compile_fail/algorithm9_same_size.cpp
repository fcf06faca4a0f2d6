// Mistake: the Algorithm 9 slip again, with d_f = d_e = 8.
// Now every size agrees and a size-checked library runs it; but W_u (N_V, d_e) reads the token
// embedding's coordinates, and line 11's X holds the d_f coordinates of the final projection W_f.
// Fix: W_u ∈ R^{N_V × d_f}: unembedding<float, N_V<32>, d_f<8>>.
// gallery: 2
// fixed: unembedding<float, N_V<32>, d_e<8>>& u => unembedding<float, N_V<32>, d_f<8>>& u
// covers: nn::forward[unembedding](X p)
// expect: in::Algorithm_7_unembedding
// first-error: X_rows<typeformer::d_f<8>, W_u_cols<typeformer::d_e<8>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void unembed(const unembedding<float, N_V<32>, d_e<8>>& u,  // W_u (N_V, d_e)
             const mat<float, d_f<8>, l_x<4>>& X,           // (d_f, l_x): d_f = d_e = 8
             mat<float, N_V<32>, l_x<4>>& logits) {         // (N_V, l_x)
    forward(u, X, logits);  // error here: Algorithm 9, line 12
}
