// Mistake: encoding a context z into the KV cache of a wider seq2seq model.
// try_encode computes Z and every decoder layer's cross-attention K, V into the cache: the cache's
// (H·d_attn, l_z) blocks belong to the model it was made for.
// Fix: kv_cache<Model> of this model.
// fixed: tf::kv_cache<tf::EDTransformer<float, wider>>& cache => tf::kv_cache<tf::EDTransformer<float, translator>>& cache
// covers: try_encode(c m)
// expect: in::try_encode
// first-error: kv_cache_of<typeformer::EDTransformer<float, wider>, model<typeformer::EDTransformer<float, translator>, first_difference<typeformer::d_e<32>, typeformer::d_e<16>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct translator {  // Algorithm 8: l_x and l_z both hold 8 tokens
    static constexpr std::size_t N_V = 32, l_max = 8, L = 1, H = 2, d_e = 16, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};
struct wider {
    static constexpr std::size_t N_V = 32, l_max = 8, L = 1, H = 2, d_e = 32, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};
namespace tf = typeformer;

tf::status start(const tf::EDTransformer<float, translator>& model,
                 tf::kv_cache<tf::EDTransformer<float, wider>>& cache, std::span<const tf::token> z) {
    return tf::try_encode(model, cache, z);  // error here
}
