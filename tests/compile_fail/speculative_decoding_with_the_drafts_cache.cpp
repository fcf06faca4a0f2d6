// Mistake: speculative decoding: the target model appending a token to the draft model's KV cache.
// Each model keeps its own keys and values per layer: the draft (L = 1) has one layer's K, V, the
// target two.
// Fix: one kv_cache per model; verify the draft's tokens with the target's own cache.
// fourteen: 1 speculative decoding with the draft's KV cache
// fixed: tf::kv_cache<tf::DTransformer<float, draft>>& draft_cache => tf::kv_cache<tf::DTransformer<float, tiny>>& draft_cache
// covers: try_append(c m)
// expect: in::try_append
// first-error: kv_cache_of<typeformer::DTransformer<float, draft>, model<typeformer::DTransformer<float, tiny>, first_difference<typeformer::L<1>, typeformer::L<2>
// max-lines: 9
// clang-max-lines: 7
// gallery: 26
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
struct draft {  // the same shapes, one layer
    static constexpr std::size_t N_V = 64, l_max = 32, L = 1, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

tf::status verify(const tf::DTransformer<float, tiny>& target,
                  tf::kv_cache<tf::DTransformer<float, draft>>& draft_cache, tf::token y) {
    return tf::try_append(target, draft_cache, y);  // error here
}
