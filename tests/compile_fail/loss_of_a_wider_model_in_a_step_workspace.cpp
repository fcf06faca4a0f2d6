// Mistake: the loss of a wider model computed in the step workspace of the tiny one.
// A step workspace holds the activations and gradients of one model at l_max (its sizeof is the
// step's memory); this θ has d_e = 64, the workspace's model 32.
// Fix: step_workspace<DTransformer<float, wide>> for this model.
// fixed: float, wide> => float, tiny>
// covers: loss(theta)
// expect: in::loss
// first-error: typeformer::workspace_of<typeformer::DTransformer<float, tiny, typeformer::model<typeformer::DTransformer<float, wide, typeformer::first_difference<typeformer::d_e<32>, typeformer::d_e<64
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

float step(const tf::DTransformer<float, wide>& theta, std::span<const tf::token> x, tf::step_workspace<tf::DTransformer<float, tiny>>& ws) {
    return tf::loss(theta, x, ws);  // error here
}
