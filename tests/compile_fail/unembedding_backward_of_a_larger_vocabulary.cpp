// Mistake: Algorithm 7's backward with the unembedding of a larger vocabulary.
// W_u (N_V, d_e): a vocabulary of 259 tokens is another matrix than this model's 64, and dlogits
// has 64 rows.
// Fix: the model's own unembedding.
// fixed: const unembedding<float, N_V<259>, d_e<32>>& p => const Un& p
// covers: nn::backward[unembedding](p)
// expect: in::Algorithm_7_unembedding_backward
// first-error: typeformer::dlogits_rows<typeformer::N_V<64, typeformer::W_u_rows<typeformer::N_V<259
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using Un = unembedding<float, N_V<64>, d_e<32>>;
using X_t = mat<float, d_e<32>, l_x<8>>;
using L_t = mat<float, N_V<64>, l_x<8>>;

 void unembed(const unembedding<float, N_V<259>, d_e<32>>& p, const X_t& X, const L_t& dl, X_t& dX, Un& g) {
     nn::backward(p, X, dl, dX, g);  // error here
 }
