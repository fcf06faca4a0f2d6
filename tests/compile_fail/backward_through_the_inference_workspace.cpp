// Mistake: the backward pass given the inference workspace the forward pass ran in.
// An inference workspace keeps one layer's activations at a time (no heap, smallest footprint);
// backward needs every layer's (training_workspace<Model> keeps them).
// Fix: run logits(model, x, ws) in a training_workspace<Model>, then backward with it.
// fixed: tf::inference_workspace => tf::training_workspace
// covers: backward(ws)
// expect: in::backward
// first-error: in::backward, workspace<typeformer::DTransformer<float, tiny>, typeformer::workspace_kind::inference>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

void learn(const tf::DTransformer<float, tiny>& model, std::span<const tf::token> x,
           tf::inference_workspace<tf::DTransformer<float, tiny>>& ws, tf::DTransformer<float, tiny>& grads) {
    tf::backward(model, x, ws, grads);  // error here
}
