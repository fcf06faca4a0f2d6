// Mistake: the tied unembedding's backward given the hidden activations as X.
// ∂loss/∂W_e accumulates X dlogitsᵀ: X is the final stream (d_e, l_x).
// Fix: X (d_e, l_x).
// fixed: const mat<float, d_mlp<128>, l_x<8>>& X => const X_t& X
// covers: nn::backward[tied_unembedding](X)
// expect: in::Algorithm_7_unembedding_backward
// first-error: typeformer::X_rows<typeformer::d_mlp<128, typeformer::W_e_rows<typeformer::d_e<32
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using Tied = tied_unembedding<float, N_V<64>, d_e<32>>;
using Te = token_embedding<float, d_e<32>, N_V<64>>;
using X_t = mat<float, d_e<32>, l_x<8>>;
using L_t = mat<float, N_V<64>, l_x<8>>;

 void unembed(const Tied& p, const Te& te, const mat<float, d_mlp<128>, l_x<8>>& X, const L_t& dl, X_t& dX, Te& g) {
     nn::backward(p, te, X, dl, dX, g);  // error here
 }
