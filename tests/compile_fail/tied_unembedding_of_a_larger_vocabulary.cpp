// Mistake: the tied unembedding of a larger vocabulary over this model's W_e.
// W_u = W_eᵀ: the tied block names the vocabulary (N_V = 259) and d_e of the W_e it reads; this
// W_e has 64 columns.
// Fix: tied_unembedding<float, N_V<64>, d_e<32>>, the model's.
// fixed: const tied_unembedding<float, N_V<259>, d_e<32>>& p => const Tied& p
// covers: nn::forward[tied_unembedding](p te)
// expect: in::Algorithm_7_unembedding
// first-error: typeformer::block<typeformer::nn::token_embedding<float, typeformer::d_e<32>, typeformer::N_V<64, typeformer::block<typeformer::nn::token_embedding<float, typeformer::d_e<32>, typeformer::N_V<259
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using Tied = tied_unembedding<float, N_V<64>, d_e<32>>;
using Te = token_embedding<float, d_e<32>, N_V<64>>;
using X_t = mat<float, d_e<32>, l_x<8>>;
using L_t = mat<float, N_V<64>, l_x<8>>;

 void unembed(const tied_unembedding<float, N_V<259>, d_e<32>>& p, const Te& te, const X_t& X, L_t& logits) {
     nn::forward(p, te, X, logits);  // error here
 }
