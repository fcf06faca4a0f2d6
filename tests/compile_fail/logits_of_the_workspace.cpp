// Mistake: the newest position's logits asked of the inference workspace instead of the KV cache.
// logits(c) reads W_u X̃[:, t] that the cache's last append computed; a workspace holds a whole
// sequence's logits (ws.out, N_V × l_x).
// Fix: logits(cache) after append, or the view that logits(model, x, ws) returns.
// fixed: tf::inference_workspace<tf::DTransformer<float, tiny>>& ws => tf::kv_cache<tf::DTransformer<float, tiny>>& ws
// covers: logits(c)
// expect: in::logits
// first-error: typeformer::workspace_of<typeformer::DTransformer<float, tiny, typeformer::needed<typeformer::kv_cache<typeformer::DTransformer<float, tiny>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

auto last(const tf::inference_workspace<tf::DTransformer<float, tiny>>& ws) {
    return tf::logits(ws);  // error here
}
