// Mistake: Algorithm 7's gradient accumulated into the unembedding of a larger vocabulary.
// The gradient of W_u has W_u's shape (N_V = 64, d_e).
// Fix: grads of the block's own type.
// fixed: unembedding<float, N_V<259>, d_e<32>>& g => Un& g
// covers: nn::backward[unembedding](grads)
// expect: in::Algorithm_7_unembedding_backward
// first-error: typeformer::grads<typeformer::nn::unembedding<float, typeformer::N_V<259>, typeformer::d_e<32, typeformer::block<typeformer::nn::unembedding<float, typeformer::N_V<64>, typeformer::d_e<32
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using Un = unembedding<float, N_V<64>, d_e<32>>;
using X_t = mat<float, d_e<32>, l_x<8>>;
using L_t = mat<float, N_V<64>, l_x<8>>;

 void unembed(const Un& p, const X_t& X, const L_t& dl, X_t& dX, unembedding<float, N_V<259>, d_e<32>>& g) {
     nn::backward(p, X, dl, dX, g);  // error here
 }
