// Mistake: a workspace made for the KV cache instead of the model.
// workspace<Model, Kind> holds a model's activations; the KV cache is another object of the
// model's, with its own working memory.
// Fix: workspace<Model, workspace_kind::inference> (inference_workspace<Model>).
// fixed: tf::workspace<tf::kv_cache<gpt>, => tf::workspace<gpt,
// covers: workspace(Model)
// expect: workspace<typeformer::kv_cache<typeformer::DTransformer<float, tiny>
// first-error: workspace<typeformer::kv_cache<typeformer::DTransformer<float, tiny>
// max-lines: 3
// clang-max-lines: 7
// clang-expect: workspace<typeformer::kv_cache<typeformer::DTransformer<float, tiny>>, typeformer::workspace_kind::inference>
// clang-first-error: workspace<typeformer::kv_cache<typeformer::DTransformer<float, tiny>>, typeformer::workspace_kind::inference>
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;
using gpt = tf::DTransformer<float, tiny>;

tf::workspace<tf::kv_cache<gpt>, tf::workspace_kind::inference> ws;  // error here
