// Mistake: prefilling the prompt into the KV cache of a wider model.
// prefill writes every layer's K, V (H·d_attn, l_max) and the stream (d_e) into the cache of the
// model it was made for: d_e = 64, the model's 32.
// Fix: kv_cache<DTransformer<float, tiny>>.
// fixed: float, wide> => float, tiny>
// covers: prefill(c)
// expect: in::prefill
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

void start(const tf::DTransformer<float, tiny>& model, tf::kv_cache<tf::DTransformer<float, wide>>& cache,
           std::span<const tf::token> prompt) {
    tf::prefill(model, cache, prompt);  // error here
}
