// Mistake: prefilling the KV cache (host form) with a prompt tokenized byte by byte for an N_V = 64 model.
// prefill runs the prompt through Algorithm 10 token by token; the prompt's type says N_V = 259,
// the model's W_e has 64 columns.
// Fix: tokens of the model's vocabulary.
// fixed: tf::tokenize::tokens<tf::N_V<259>>& p => tf::tokenize::tokens<tf::N_V<64>>& p
// covers: prefill(prompt m)
// expect: in::prefill
// first-error: tokens_of<typeformer::N_V<259>, model_N_V<typeformer::N_V<64>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/tokenize/byte.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;
using gpt = tf::DTransformer<float, tiny>;

void start(const gpt& model, tf::kv_cache<gpt>& cache, const tf::tokenize::tokens<tf::N_V<259>>& p) {
    tf::prefill(model, cache, p);  // error here
}
