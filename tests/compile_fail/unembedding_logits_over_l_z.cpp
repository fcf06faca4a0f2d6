// Mistake: Algorithm 7's logits written into a matrix over the context's positions (l_z).
// W_u X has one column per column of X (l_x).
// Fix: logits (N_V, l_x).
// fixed: mat<float, N_V<64>, l_z<8>>& logits => L_t& logits
// covers: nn::forward[unembedding](logits)
// expect: in::Algorithm_7_unembedding
// first-error: typeformer::logits_cols<typeformer::l_z<8, typeformer::X_cols<typeformer::l_x<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using Un = unembedding<float, N_V<64>, d_e<32>>;
using X_t = mat<float, d_e<32>, l_x<8>>;
using L_t = mat<float, N_V<64>, l_x<8>>;

 void unembed(const Un& p, const X_t& X, mat<float, N_V<64>, l_z<8>>& logits) {
     nn::forward(p, X, logits);  // error here
 }
