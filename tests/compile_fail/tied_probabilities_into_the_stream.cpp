// Mistake: tied probabilities written into a (d_e, l_x) matrix.
// P = softmax(W_eᵀ X) has N_V rows.
// Fix: P (N_V, l_x).
// fixed: X_t& P) => L_t& P)
// covers: nn::probabilities[tied_unembedding](P)
// expect: in::Algorithm_7_probabilities
// first-error: typeformer::P_rows<typeformer::d_e<32, typeformer::W_e_cols<typeformer::N_V<64
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using Tied = tied_unembedding<float, N_V<64>, d_e<32>>;
using Te = token_embedding<float, d_e<32>, N_V<64>>;
using X_t = mat<float, d_e<32>, l_x<8>>;
using L_t = mat<float, N_V<64>, l_x<8>>;

 void unembed(const Tied& p, const Te& te, const X_t& X, X_t& P) {
     nn::probabilities(p, te, X, P);  // error here
 }
