// Mistake: Algorithms 1 and 2 writing a sequence's embeddings into a (d_mid, l_x) buffer.
// Line 2 of Algorithms 8–10: e_t ← W_e[:, x[t]] + W_p[:, t]; the embedding of a token is a column of
// W_e (d_e, N_V), so X = [e_1, …, e_ℓ] is (d_e, l_x). d_mid = d_e = 16 here.
// Fix: X (d_e, l_x).
// gallery: 7
// fixed: mat<float, d_mid<16>, l_x<8>>& X => mat<float, d_e<16>, l_x<8>>& X
// covers: nn::embed(X te)
// expect: in::Algorithm_1_2_embed
// first-error: X_rows<typeformer::d_mid<16>, W_e_rows<typeformer::d_e<16>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void embed_prompt(const token_embedding<float, d_e<16>, N_V<32>>& te,
                  const positional_embedding<float, d_e<16>, l_max<8>>& pe,
                  std::span<const token> x, mat<float, d_mid<16>, l_x<8>>& X) {
    nn::embed(te, pe, x, X);  // error here
}
