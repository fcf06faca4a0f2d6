// Mistake: Algorithm 15 (EDInference) given the encoded context Z instead of the tokens z.
// EDInference runs lines 1–9 of Algorithm 8 itself (Z ← encoder(z), and every decoder layer's
// cross-attention K, V of Z into the cache); its input is the context sequence z of token ids.
// Fix: tf::EDInference(model, cache, z, {}, gen); encode(model, z, ws) is for forward/logits.
// fixed: tf::EDInference(model, cache, Z, {}, gen); => tf::EDInference(model, cache, z, {}, gen);
// fixed: const auto Z = tf::encode(model, z, ws); => (void)ws;
// covers: EDInference(z)
// expect: in::Algorithm_15_EDInference
// first-error: Z_of<typeformer::EDTransformer<float, translator>, needed<typeformer::tokens_of<typeformer::N_V<32>
// max-lines: 9
// clang-max-lines: 7
// gallery: 28
#include <typeformer/typeformer.hpp>

struct translator {
    static constexpr std::size_t N_V = 32, l_max = 8, L = 1, H = 2, d_e = 16, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};
namespace tf = typeformer;
using seq2seq = tf::EDTransformer<float, translator>;

void translate(const seq2seq& model, tf::kv_cache<seq2seq>& cache,
               tf::inference_workspace<seq2seq>& ws, std::span<const tf::token> z, tf::rng& gen) {
    const auto Z = tf::encode(model, z, ws);
    auto x_hat = tf::EDInference(model, cache, Z, {}, gen);  // error here
    (void)x_hat;
}
