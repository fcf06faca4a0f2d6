// Mistake: the loss of a seq2seq model given a byte-level context z (N_V = 259) for a vocabulary of 32.
// Algorithm 11's loss embeds the context z with W_e (d_e, N_V = 32); byte-level ids go up to 258.
// Fix: tokenize z with tokenize::for_model<Model>.
// fixed: tf::tokenize::byte_level::encode("bonjour") => tf::tokenize::tokens<tf::N_V<32>>::checked(std::vector<tf::token>{1, 2, 3})
// covers: loss(z)
// expect: in::loss
// first-error: typeformer::tokens_of<typeformer::N_V<259, typeformer::model_N_V<typeformer::N_V<32
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/tokenize/byte.hpp>

struct translator {  // Algorithm 8: l_x and l_z both hold 8 tokens
    static constexpr std::size_t N_V = 32, l_max = 8, L = 1, H = 2, d_e = 16, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};
namespace tf = typeformer;

float step(const tf::EDTransformer<float, translator>& model, std::span<const tf::token> x, tf::inference_workspace<tf::EDTransformer<float, translator>>& ws) {
    const auto z = tf::tokenize::byte_level::encode("bonjour");  // tokens<N_V<259>>
    return tf::loss(model, z, x, ws);  // error here
}
