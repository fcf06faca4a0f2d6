// Mistake: Algorithms 1–2 adding the positional embedding of a wider model (d_e = 32).
// X[:, t] = W_e[:, x[t]] + W_p[:, t]: both columns have the stream's d_e = 16 rows; this W_p has
// 32.
// Fix: the positional embedding of this model (d_e = 16).
// fixed: const positional_embedding<float, d_e<32>, l_max<8>>& pe => const PE& pe
// covers: nn::embed(pe)
// expect: in::Algorithm_1_2_embed
// first-error: typeformer::W_p_rows<typeformer::d_e<32, typeformer::W_e_rows<typeformer::d_e<16
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using TE = token_embedding<float, d_e<16>, N_V<32>>;
using PE = positional_embedding<float, d_e<16>, l_max<8>>;
using X_t = mat<float, d_e<16>, l_x<8>>;

 void f(const TE& te, const positional_embedding<float, d_e<32>, l_max<8>>& pe, std::span<const token> x, X_t& X) {
     nn::embed(te, pe, x, X);  // error here
 }
