// Mistake: the logits of byte-level tokens from a model whose vocabulary has 64 entries.
// logits(model, x, ws) reads column x[t] of W_e (d_e, N_V) for every token: byte-level ids go up
// to 258 (256 bytes and 3 special tokens), the model's W_e has 64 columns.
// Fix: tokens from the model's own tokenizer (tokenize::for_model<Model>), or a model with N_V = 259.
// fixed: tf::tokenize::byte_level::encode("hello") => tf::tokenize::tokens<tf::N_V<64>>::checked(std::vector<tf::token>{1, 2, 3})
// covers: logits(x)
// expect: in::logits
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

void score(const tf::DTransformer<float, tiny>& model, tf::inference_workspace<tf::DTransformer<float, tiny>>& ws) {
    const auto x = tf::tokenize::byte_level::encode("hello");  // tokens<N_V<259>>
    auto P = tf::logits(model, x, ws);  // error here
    (void)P;
}
