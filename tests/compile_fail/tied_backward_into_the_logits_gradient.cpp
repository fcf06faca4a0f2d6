// Mistake: the tied unembedding's input gradient written into an (N_V, l_x) matrix.
// ∂loss/∂X = W_e dlogits has X's shape (d_e, l_x).
// Fix: dX (d_e, l_x).
// fixed: L_t& dX => X_t& dX
// covers: nn::backward[tied_unembedding](dX)
// expect: in::Algorithm_7_unembedding_backward
// first-error: typeformer::dX_rows<typeformer::N_V<64, typeformer::X_rows<typeformer::d_e<32
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using Tied = tied_unembedding<float, N_V<64>, d_e<32>>;
using Te = token_embedding<float, d_e<32>, N_V<64>>;
using X_t = mat<float, d_e<32>, l_x<8>>;
using L_t = mat<float, N_V<64>, l_x<8>>;

 void unembed(const Tied& p, const Te& te, const X_t& X, const L_t& dl, L_t& dX, Te& g) {
     nn::backward(p, te, X, dl, dX, g);  // error here
 }
