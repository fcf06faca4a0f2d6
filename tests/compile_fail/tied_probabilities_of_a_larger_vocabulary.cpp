// Mistake: tied probabilities with the block of a larger vocabulary.
// The tied block names the W_e it reads: N_V = 259 here, 64 in the model's W_e.
// Fix: the model's tied_unembedding.
// fixed: const tied_unembedding<float, N_V<259>, d_e<32>>& p => const Tied& p
// covers: nn::probabilities[tied_unembedding](p)
// expect: in::Algorithm_7_probabilities
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

 void unembed(const tied_unembedding<float, N_V<259>, d_e<32>>& p, const Te& te, const X_t& X, L_t& P) {
     nn::probabilities(p, te, X, P);  // error here
 }
