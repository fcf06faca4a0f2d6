// Mistake: the tied unembedding's backward given a (d_e, l_x) gradient as dlogits.
// ∂loss/∂logits has N_V rows.
// Fix: dlogits (N_V, l_x).
// fixed: const X_t& dl => const L_t& dl
// covers: nn::backward[tied_unembedding](dlogits)
// expect: in::Algorithm_7_unembedding_backward
// first-error: typeformer::dlogits_rows<typeformer::d_e<32, typeformer::W_e_cols<typeformer::N_V<64
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using Tied = tied_unembedding<float, N_V<64>, d_e<32>>;
using Te = token_embedding<float, d_e<32>, N_V<64>>;
using X_t = mat<float, d_e<32>, l_x<8>>;
using L_t = mat<float, N_V<64>, l_x<8>>;

 void unembed(const Tied& p, const Te& te, const X_t& X, const X_t& dl, X_t& dX, Te& g) {
     nn::backward(p, te, X, dl, dX, g);  // error here
 }
