// Mistake: Algorithm 8's decoder stream X (d_e, l_x) copied over the encoder's output Z (d_e, l_z).
// Both lengths hold l_max = 8 tokens, and the sizes match; but Z is the context the cross-attention
// reads (line 16) and X the sequence being generated.
// Fix: keep them apart; relabel<d_e<16>, l_z<8>>(X) if a context really is a primary sequence.
// fixed: copy(ws.X[0], ws.Z[0]); => copy(relabel<d_e<16>, l_z<8>>(ws.X[0]), ws.Z[0]);
// covers: copy(dst src)
// expect: in::copy
// first-error: dst_cols<typeformer::l_z<8>, src_cols<typeformer::l_x<8>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct translator {  // Algorithm 8: l_x and l_z both hold 8 tokens
    static constexpr std::size_t N_V = 32, l_max = 8, L = 1, H = 2, d_e = 16, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};
struct wider_translator {
    static constexpr std::size_t N_V = 32, l_max = 8, L = 1, H = 2, d_e = 32, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};

using namespace typeformer;

void mix(training_workspace<EDTransformer<float, translator>>& ws) {
    copy(ws.X[0], ws.Z[0]);  // error here
}
