// Mistake: Algorithm 2's positional embedding asked of the token embedding W_e.
// Algorithm 2 returns W_p[:, ℓ], a column of the positional embedding (d_e, l_max); W_e (d_e, N_V)
// is indexed by token.
// Fix: nn::embed_position(pe, t) with the positional embedding.
// fixed: const token_embedding<float, d_e<16>, N_V<32>>& te => const positional_embedding<float, d_e<16>, l_max<8>>& te
// covers: nn::embed_position(p)
// expect: in::Algorithm_2_positional_embedding
// first-error: nn::token_embedding<float, typeformer::d_e<16>, typeformer::N_V<32, needed<typeformer::W_p_rows<typeformer::d_e<16
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

auto position(const token_embedding<float, d_e<16>, N_V<32>>& te, std::size_t t) {
    return nn::embed_position(te, t);  // error here
}
