// Mistake: Algorithms 1–2's backward given the gradient of the MLP's hidden activations.
// The embeddings' gradient scatters ∂X[:, t] (d_e rows) into column x[t] of ∂W_e (and t of ∂W_p):
// it needs the stream's gradient, d_e rows.
// Fix: the gradient of the first layer's input, (d_e, l_x).
// fixed: const mat<float, d_mlp<64>, l_x<8>>& dH => const mat<float, d_e<16>, l_x<8>>& dH
// covers: nn::embed_backward(dX te)
// expect: in::Algorithm_1_2_embed_backward
// first-error: dX_rows<typeformer::d_mlp<64>, W_e_rows<typeformer::d_e<16>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;
using TE = token_embedding<float, d_e<16>, N_V<32>>;
using PE = positional_embedding<float, d_e<16>, l_max<8>>;

void back(const TE& te, const PE& pe, std::span<const token> x,
          const mat<float, d_mlp<64>, l_x<8>>& dH, TE& dte, PE& dpe) {
    nn::embed_backward(te, pe, x, dH, dte, dpe);  // error here
}
