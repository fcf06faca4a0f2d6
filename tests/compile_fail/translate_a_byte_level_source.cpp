// Mistake: translating a source sentence tokenized byte by byte with a model whose vocabulary has 32 entries.
// Algorithm 8 embeds the context z with the same W_e (d_e, N_V) as x: byte-level ids go up to 258,
// the model's vocabulary has 32 entries.
// Fix: tokenize z with the model's own tokenizer (tokenize::for_model<Model>).
// fixed: tf::tokenize::byte_level::encode("bonjour") => tf::tokenize::tokens<tf::N_V<32>>::checked(std::vector<tf::token>{1, 2, 3})
// covers: forward(z)
// expect: in::forward
// first-error: tokens_of<typeformer::N_V<259>, model_N_V<typeformer::N_V<32>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/tokenize/byte.hpp>

struct translator {  // Algorithm 8: l_x and l_z both hold 8 tokens
    static constexpr std::size_t N_V = 32, l_max = 8, L = 1, H = 2, d_e = 16, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};
namespace tf = typeformer;

void translate(const tf::EDTransformer<float, translator>& model, std::span<const tf::token> x,
               tf::inference_workspace<tf::EDTransformer<float, translator>>& ws) {
    const auto z = tf::tokenize::byte_level::encode("bonjour");  // tokens<N_V<259>>
    auto P = tf::forward(model, z, x, ws);  // error here
    (void)P;
}
