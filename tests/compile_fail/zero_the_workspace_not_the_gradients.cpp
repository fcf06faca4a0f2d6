// Mistake: zeroing the training workspace where the gradients were meant.
// Backward accumulates into the gradients (∇ += …), which have the model's type; the workspace
// holds the activations, not parameters, and is overwritten by each forward pass.
// Fix: tf::zero(grads).
// fixed: tf::training_workspace<tf::DTransformer<float, tiny>>& ws => tf::DTransformer<float, tiny>& ws
// covers: zero(x)
// expect: in::zero
// first-error: model<typeformer::workspace<typeformer::DTransformer<float, tiny>, needed<typeformer::model_parameters
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

void start_step(tf::training_workspace<tf::DTransformer<float, tiny>>& ws) {
    tf::zero(ws);  // error here
}
