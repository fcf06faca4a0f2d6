// Mistake: the tied unembedding applied to the MLP's hidden activations (d_mlp, l_x).
// W_eᵀ X takes the stream X (d_e, l_x).
// Fix: the final stream X (d_e, l_x).
// fixed: const mat<float, d_mlp<128>, l_x<8>>& X => const X_t& X
// covers: nn::forward[tied_unembedding](X)
// expect: in::Algorithm_7_unembedding
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

 void unembed(const Tied& p, const Te& te, const mat<float, d_mlp<128>, l_x<8>>& X, L_t& logits) {
     nn::forward(p, te, X, logits);  // error here
 }
