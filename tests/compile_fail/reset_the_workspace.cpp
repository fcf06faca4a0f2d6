// Mistake: resetting the inference workspace to start a new sequence.
// reset forgets the tokens a KV cache holds (its K, V per layer); the forward pass's workspace
// keeps nothing between calls.
// Fix: tf::reset(cache) of the model's kv_cache.
// fixed: tf::inference_workspace<tf::DTransformer<float, tiny>>& ws => tf::kv_cache<tf::DTransformer<float, tiny>>& ws
// covers: reset(c)
// expect: in::reset
// first-error: workspace_of<typeformer::DTransformer<float, tiny>, needed<typeformer::kv_cache<typeformer::DTransformer<float, tiny>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

void new_conversation(tf::inference_workspace<tf::DTransformer<float, tiny>>& ws) {
    tf::reset(ws);  // error here
}
