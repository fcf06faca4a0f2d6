// Mistake: Algorithm 14 (DInference) with the KV cache of another model.
// A kv_cache holds, per layer, K (H·d_attn, l_max) and V (H·d_mid, l_max) of its model; this one was
// made for a model with one layer.
// Fix: kv_cache<DTransformer<float, tiny>>.
// fixed: tf::kv_cache<tf::DTransformer<float, one_layer>>& cache => tf::kv_cache<tf::DTransformer<float, tiny>>& cache
// covers: DInference(cache model)
// expect: in::Algorithm_14_DInference
// first-error: kv_cache_of<typeformer::DTransformer<float, one_layer>, model<typeformer::DTransformer<float, tiny>, first_difference<typeformer::L<1>, typeformer::L<2>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT: d_attn = d_mid = 16
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};

struct one_layer {
    static constexpr std::size_t N_V = 64, l_max = 32, L = 1, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

void generate(const tf::DTransformer<float, tiny>& model,
              tf::kv_cache<tf::DTransformer<float, one_layer>>& cache,
              std::span<const tf::token> prompt, tf::rng& gen) {
    auto y = tf::DInference(model, cache, prompt, 16, {}, gen);  // error here
    (void)y;
}
