// Mistake: the embeddings' backward accumulated into the token table of a larger vocabulary.
// ∂W_e has W_e's shape (d_e, N_V = 32): column x[t] gets ∂X[:, t].
// Fix: dte of the model's own token embedding.
// fixed: token_embedding<float, d_e<16>, N_V<259>>& dte => TE& dte
// covers: nn::embed_backward(te_grads)
// expect: in::Algorithm_1_2_embed_backward
// first-error: typeformer::grads<typeformer::nn::token_embedding<float, typeformer::d_e<16>, typeformer::N_V<259, typeformer::block<typeformer::nn::token_embedding<float, typeformer::d_e<16>, typeformer::N_V<32
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using TE = token_embedding<float, d_e<16>, N_V<32>>;
using PE = positional_embedding<float, d_e<16>, l_max<8>>;
using X_t = mat<float, d_e<16>, l_x<8>>;

 void f(const TE& te, const PE& pe, std::span<const token> x, const X_t& dX, token_embedding<float, d_e<16>, N_V<259>>& dte, PE& dpe) {
     nn::embed_backward(te, pe, x, dX, dte, dpe);  // error here
 }
