// Mistake: the status form of logits computed in the workspace of a wider model.
// A workspace holds the activations of its model at l_max: a model with d_e = 64 has (64, ℓ)
// streams where this one's are (32, ℓ).
// Fix: a workspace of the same model type.
// fixed: tf::inference_workspace<tf::DTransformer<float, wide>>& ws => tf::inference_workspace<tf::DTransformer<float, tiny>>& ws
// covers: try_logits(ws model)
// expect: in::try_logits
// first-error: workspace_of<typeformer::DTransformer<float, wide>, model<typeformer::DTransformer<float, tiny>, first_difference<typeformer::d_e<64>, typeformer::d_e<32>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
struct wide {  // tiny with d_e = 64
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 64, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

tf::status scores(const tf::DTransformer<float, tiny>& model, std::span<const tf::token> x,
                  tf::inference_workspace<tf::DTransformer<float, wide>>& ws) {
    return tf::try_logits(model, x, ws);  // error here
}
