// Mistake: Algorithm 1's token embedding asked of the positional embedding W_p.
// Algorithm 1 returns W_e[:, v], a column of the token embedding (d_e, N_V); W_p (d_e, l_max) is
// Algorithm 2's, indexed by position.
// Fix: nn::embed_token(te, v) with the token embedding; nn::embed_position(pe, t) for a position.
// fixed: const positional_embedding<float, d_e<16>, l_max<8>>& pe => const token_embedding<float, d_e<16>, N_V<32>>& pe
// covers: nn::embed_token(p)
// expect: in::Algorithm_1_token_embedding
// first-error: nn::positional_embedding<float, typeformer::d_e<16>, typeformer::l_max<8, needed<typeformer::W_e_rows<typeformer::d_e<16
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

auto first_token(const positional_embedding<float, d_e<16>, l_max<8>>& pe, token v) {
    return nn::embed_token(pe, v);  // error here
}
