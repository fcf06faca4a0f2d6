// Mistake: Algorithm 14's status form on a microcontroller given a byte-level prompt for an N_V = 64 model.
// DInference samples from P̂(x[t+1] | x[1:t]) over the model's 64 tokens; the prompt's type says
// 259.
// Fix: a prompt of the model's vocabulary.
// fixed: tf::tokenize::tokens<tf::N_V<259>>& prompt => tf::tokenize::tokens<tf::N_V<64>>& prompt
// covers: try_DInference(x model)
// expect: in::Algorithm_14_DInference
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

tf::status generate(const gpt& model, tf::kv_cache<gpt>& cache,
                    const tf::tokenize::tokens<tf::N_V<259>>& prompt, tf::rng& gen,
                    std::span<tf::token> y, std::size_t& n) {
    return tf::try_DInference(model, cache, prompt, 16, {}, gen, y, n);  // error here
}
