// Mistake: the checked prefill into the KV cache of a wider model.
// The cache's blocks are sized by the model it was made for (d_e = 64); this model's stream has 32
// rows.
// Fix: kv_cache<DTransformer<float, tiny>>.
// fixed: float, wide> => float, tiny>
// covers: try_prefill(c)
// expect: in::try_prefill
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

tf::status start(const tf::DTransformer<float, tiny>& model, tf::kv_cache<tf::DTransformer<float, wide>>& cache,
                 std::span<const tf::token> prompt) {
    return tf::try_prefill(model, cache, prompt);  // error here
}
