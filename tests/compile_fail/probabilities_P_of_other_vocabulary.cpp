// Mistake: the next-token distribution of a byte-level model read into a 256-entry vector.
// P[:, t] = softmax(W_u X̃[:, t]) has one entry per token of the model's vocabulary, N_V = 259
// (256 bytes and the 3 special tokens), not 256; this call used to compile and write 259 floats
// into 256 (a heap overflow under -DNDEBUG).
// Fix: a vec<float, N_V<259>> (the model's traits::N_V).
// fourteen: 6 probabilities(cache, P) with P over another vocabulary (compiled, then overflowed)
// fixed: tf::vec<float, tf::N_V<256>>& P => tf::vec<float, tf::N_V<259>>& P
// covers: probabilities(P c)
// expect: in::probabilities
// first-error: P_rows<typeformer::N_V<256>, logits_rows<typeformer::N_V<259>
// max-lines: 9
// clang-max-lines: 7
// gallery: 20
#include <typeformer/typeformer.hpp>

struct bytes {  // a byte-level GPT
    static constexpr std::size_t N_V = 259, l_max = 64, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;
using gpt = tf::DTransformer<float, bytes>;

void next_token_distribution(const tf::kv_cache<gpt>& cache, tf::vec<float, tf::N_V<256>>& P) {
    tf::probabilities(cache, P);  // error here
}
