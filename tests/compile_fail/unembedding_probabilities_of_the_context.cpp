// Mistake: Algorithm 7's probabilities of the context Z (l_z) into P over l_x.
// P = softmax(W_u X) has one column per column of the X it reads.
// Fix: the stream X (d_e, l_x).
// fixed: const mat<float, d_e<32>, l_z<8>>& X => const X_t& X
// covers: nn::probabilities[unembedding](X)
// expect: in::Algorithm_7_probabilities
// first-error: typeformer::P_cols<typeformer::l_x<8, typeformer::X_cols<typeformer::l_z<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using Un = unembedding<float, N_V<64>, d_e<32>>;
using X_t = mat<float, d_e<32>, l_x<8>>;
using L_t = mat<float, N_V<64>, l_x<8>>;

 void unembed(const Un& p, const mat<float, d_e<32>, l_z<8>>& X, L_t& P) {
     nn::probabilities(p, X, P);  // error here
 }
