// Mistake: Algorithm 15 (EDInference) with the KV cache of a decoder-only model.
// An EDTransformer's cache also holds every decoder layer's cross-attention keys and values of Z.
// Fix: kv_cache<EDTransformer<float, translator>>.
// fixed: tf::kv_cache<tf::DTransformer<float, translator>>& cache => tf::kv_cache<tf::EDTransformer<float, translator>>& cache
// covers: EDInference(cache model)
// expect: in::Algorithm_15_EDInference
// first-error: kv_cache_of<typeformer::DTransformer<float, translator>, model<typeformer::EDTransformer<float, translator>
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

namespace tf = typeformer;

void translate(const tf::EDTransformer<float, translator>& model,
               tf::kv_cache<tf::DTransformer<float, translator>>& cache,
               std::span<const tf::token> z, tf::rng& gen) {
    auto x_hat = tf::EDInference(model, cache, z, {}, gen);  // error here
    (void)x_hat;
}
