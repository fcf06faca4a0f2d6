// Mistake: Algorithm 15's checked translation into the KV cache of a wider seq2seq model.
// The cache holds Z (d_e, l_z) and each decoder layer's cross-attention K, V of the model it was
// made for; this one's d_e is 32, the model's 16.
// Fix: kv_cache<EDTransformer<float, translator>>.
// fixed: float, wider> => float, translator>
// covers: try_EDInference(cache)
// expect: in::Algorithm_15_EDInference
// first-error: typeformer::kv_cache_of<typeformer::EDTransformer<float, wider, typeformer::model<typeformer::EDTransformer<float, translator, typeformer::first_difference<typeformer::d_e<32>, typeformer::d_e<16
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct translator {  // Algorithm 8: l_x and l_z both hold 8 tokens
    static constexpr std::size_t N_V = 32, l_max = 8, L = 1, H = 2, d_e = 16, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};
struct wider {  // the same seq2seq model with a wider stream
    static constexpr std::size_t N_V = 32, l_max = 8, L = 1, H = 2, d_e = 32, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};
namespace tf = typeformer;

tf::status translate(const tf::EDTransformer<float, translator>& model,
                     tf::kv_cache<tf::EDTransformer<float, wider>>& cache, std::span<const tf::token> z,
                     tf::rng& gen, std::span<tf::token> x_hat, std::size_t& n) {
    return tf::try_EDInference(model, cache, z, {}, gen, x_hat, n);  // error here
}
