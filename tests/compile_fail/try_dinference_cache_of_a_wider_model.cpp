// Mistake: Algorithm 14's checked generation into the KV cache of a wider model.
// The cache holds every layer's keys and values (H·d_attn, l_max) and the stream (d_e) of the
// model it was made for; this one's d_e is 64, the model's 32.
// Fix: kv_cache<DTransformer<float, tiny>>, one per model.
// fixed: float, wide> => float, tiny>
// covers: try_DInference(cache)
// expect: in::Algorithm_14_DInference
// first-error: typeformer::kv_cache_of<typeformer::DTransformer<float, wide, typeformer::model<typeformer::DTransformer<float, tiny, typeformer::first_difference<typeformer::d_e<64>, typeformer::d_e<32
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
struct wide {  // the same GPT with a wider stream
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 64, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

tf::status generate(const tf::DTransformer<float, tiny>& model,
                    tf::kv_cache<tf::DTransformer<float, wide>>& cache, std::span<const tf::token> x,
                    tf::rng& gen, std::span<tf::token> y, std::size_t& n) {
    return tf::try_DInference(model, cache, x, 16, {}, gen, y, n);  // error here
}
