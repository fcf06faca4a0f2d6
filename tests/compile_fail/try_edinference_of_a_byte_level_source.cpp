// Mistake: Algorithm 15's checked translation of a byte-level source (N_V = 259) with a model of 32 tokens.
// EDInference embeds z with W_e (d_e, N_V = 32); byte-level ids go up to 258.
// Fix: tokenize z with tokenize::for_model<Model>.
// fixed: tf::tokenize::byte_level::encode("bonjour") => tf::tokenize::tokens<tf::N_V<32>>::checked(std::vector<tf::token>{1, 2, 3})
// covers: try_EDInference(z)
// expect: in::Algorithm_15_EDInference
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

tf::status translate(const tf::EDTransformer<float, translator>& model,
                     tf::kv_cache<tf::EDTransformer<float, translator>>& cache, tf::rng& gen,
                     std::span<tf::token> x_hat, std::size_t& n) {
    const auto z = tf::tokenize::byte_level::encode("bonjour");  // tokens<N_V<259>>
    return tf::try_EDInference(model, cache, z, {}, gen, x_hat, n);  // error here
}
