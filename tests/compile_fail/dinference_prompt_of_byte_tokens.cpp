// Mistake: Algorithm 14's generation from a byte-level prompt with a model of 64 tokens.
// DInference embeds the prompt x with W_e (d_e, N_V = 64); byte-level ids go up to 258.
// Fix: a prompt from the model's tokenizer (tokenize::for_model<Model>), or a model with N_V = 259.
// fixed: tf::tokenize::byte_level::encode("once upon") => tf::tokenize::tokens<tf::N_V<64>>::checked(std::vector<tf::token>{1, 2, 3})
// covers: DInference(x)
// expect: in::Algorithm_14_DInference
// first-error: typeformer::tokens_of<typeformer::N_V<259, typeformer::model_N_V<typeformer::N_V<64
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/tokenize/byte.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

std::vector<tf::token> generate(const tf::DTransformer<float, tiny>& model,
                                tf::kv_cache<tf::DTransformer<float, tiny>>& cache, tf::rng& gen) {
    const auto x = tf::tokenize::byte_level::encode("once upon");  // tokens<N_V<259>>
    return tf::DInference(model, cache, x, 16, {}, gen);  // error here
}
