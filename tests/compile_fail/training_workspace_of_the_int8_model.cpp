// Mistake: a training workspace for the int8 model.
// Backward needs the activations of float weights to differentiate; the int8 model is for
// inference.
// Fix: training_workspace<Model> of the float model.
// fixed: tf::training_workspace<tf::q8<tf::DTransformer<float, tiny>>> => tf::training_workspace<tf::DTransformer<float, tiny>>
// covers: training_workspace(Model)
// expect: training_workspace<typeformer::quantized<typeformer::DTransformer<float, tiny>
// first-error: training_workspace<typeformer::quantized<typeformer::DTransformer<float, tiny>
// max-lines: 3
// clang-max-lines: 7
// clang-expect: workspace<typeformer::quantized<typeformer::DTransformer<float, tiny>>, typeformer::workspace_kind::training>
// clang-first-error: workspace<typeformer::quantized<typeformer::DTransformer<float, tiny>>, typeformer::workspace_kind::training>
#include <typeformer/typeformer.hpp>

#include <typeformer/models/quantized.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

tf::training_workspace<tf::q8<tf::DTransformer<float, tiny>>> ws;  // error here
