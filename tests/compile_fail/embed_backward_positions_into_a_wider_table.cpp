// Mistake: the positional embedding's gradient accumulated into a wider model's table.
// ∂W_p has W_p's shape (d_e = 16, l_max).
// Fix: dpe of the model's own positional embedding.
// fixed: positional_embedding<float, d_e<32>, l_max<8>>& dpe => PE& dpe
// covers: nn::embed_backward(pe_grads)
// expect: in::Algorithm_1_2_embed_backward
// first-error: typeformer::grads<typeformer::nn::positional_embedding<float, typeformer::d_e<32>, typeformer::l_max<8, typeformer::block<typeformer::nn::positional_embedding<float, typeformer::d_e<16>, typeformer::l_max<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using TE = token_embedding<float, d_e<16>, N_V<32>>;
using PE = positional_embedding<float, d_e<16>, l_max<8>>;
using X_t = mat<float, d_e<16>, l_x<8>>;

 void f(const TE& te, const PE& pe, std::span<const token> x, const X_t& dX, TE& dte, positional_embedding<float, d_e<32>, l_max<8>>& dpe) {
     nn::embed_backward(te, pe, x, dX, dte, dpe);  // error here
 }
