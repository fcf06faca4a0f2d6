// Mistake: the embeddings' backward given the positional embedding of a wider model.
// The positional embedding is the one X was embedded with (d_e = 16).
// Fix: this model's positional embedding.
// fixed: const positional_embedding<float, d_e<32>, l_max<8>>& pe => const PE& pe
// covers: nn::embed_backward(#2)
// expect: in::Algorithm_1_2_embed_backward
// first-error: typeformer::W_p_rows<typeformer::d_e<32, typeformer::W_e_rows<typeformer::d_e<16
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using TE = token_embedding<float, d_e<16>, N_V<32>>;
using PE = positional_embedding<float, d_e<16>, l_max<8>>;
using X_t = mat<float, d_e<16>, l_x<8>>;

 void f(const TE& te, const positional_embedding<float, d_e<32>, l_max<8>>& pe, std::span<const token> x, const X_t& dX, TE& dte, PE& dpe) {
     nn::embed_backward(te, pe, x, dX, dte, dpe);  // error here
 }
