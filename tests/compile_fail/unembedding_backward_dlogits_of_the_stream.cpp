// Mistake: Algorithm 7's backward given a (d_e, l_x) gradient as dlogits.
// ∂loss/∂logits has the logits' shape (N_V, l_x).
// Fix: dlogits (N_V, l_x), e.g. from cross_entropy_backward.
// fixed: const X_t& dl => const L_t& dl
// covers: nn::backward[unembedding](dlogits)
// expect: in::Algorithm_7_unembedding_backward
// first-error: typeformer::dlogits_rows<typeformer::d_e<32, typeformer::W_u_rows<typeformer::N_V<64
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using Un = unembedding<float, N_V<64>, d_e<32>>;
using X_t = mat<float, d_e<32>, l_x<8>>;
using L_t = mat<float, N_V<64>, l_x<8>>;

 void unembed(const Un& p, const X_t& X, const X_t& dl, X_t& dX, Un& g) {
     nn::backward(p, X, dl, dX, g);  // error here
 }
