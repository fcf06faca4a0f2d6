// Mistake: an inference workspace for the int8 model, as for its float model's forward pass.
// The int8 model decodes token by token through its KV cache (kv_cache<q8<Model>>), which holds
// the step's working memory; it has no whole-sequence forward pass and no workspace.
// Fix: kv_cache<q8<Model>> and try_prefill / try_append / DInference.
// fixed: tf::inference_workspace<tf::q8<tf::DTransformer<float, tiny>>> ws; => tf::kv_cache<tf::q8<tf::DTransformer<float, tiny>>> ws;
// covers: inference_workspace(Model)
// expect: inference_workspace<typeformer::quantized<typeformer::DTransformer<float, tiny>
// first-error: inference_workspace<typeformer::quantized<typeformer::DTransformer<float, tiny>
// max-lines: 3
// clang-max-lines: 7
// clang-expect: workspace<typeformer::quantized<typeformer::DTransformer<float, tiny>>, typeformer::workspace_kind::inference>
// clang-first-error: workspace<typeformer::quantized<typeformer::DTransformer<float, tiny>>, typeformer::workspace_kind::inference>
#include <typeformer/typeformer.hpp>

#include <typeformer/models/quantized.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

tf::inference_workspace<tf::q8<tf::DTransformer<float, tiny>>> ws;  // error here
