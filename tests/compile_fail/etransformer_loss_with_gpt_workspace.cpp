// Mistake: Algorithm 12's loss of a BERT (ETransformer) evaluated in a GPT's workspace.
// A workspace holds one architecture's activations: an ETransformer's also has the final projection
// F (d_f, l_x) of line 10, which a DTransformer's does not.
// Fix: inference_workspace<ETransformer<float, tiny>>.
// fixed: tf::inference_workspace<tf::DTransformer<float, tiny>>& ws => tf::inference_workspace<tf::ETransformer<float, tiny>>& ws
// covers: loss(ws model)
// expect: in::loss
// first-error: workspace_of<typeformer::DTransformer<float, tiny>, model<typeformer::ETransformer<float, tiny>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT: d_attn = d_mid = 16
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};

namespace tf = typeformer;

float masked_loss(const tf::ETransformer<float, tiny>& bert, std::span<const tf::token> x_tilde,
                  std::span<const tf::token> x,
                  tf::inference_workspace<tf::DTransformer<float, tiny>>& ws) {
    return tf::loss(bert, x_tilde, x, ws);  // error here
}
