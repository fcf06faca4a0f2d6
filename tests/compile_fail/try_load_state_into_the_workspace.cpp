// Mistake: loading a file image (status form) into the inference workspace.
// The image holds parameters by name (W_e, layers.0.attn.W_q, …): the model's, not the activations
// a workspace holds.
// Fix: try_load_state(model, bytes).
// fixed: tf::inference_workspace<tf::DTransformer<float, tiny>>& ws => tf::DTransformer<float, tiny>& ws
// covers: io::try_load_state(model)
// expect: in::try_load_state
// first-error: model<typeformer::workspace<typeformer::DTransformer<float, tiny>, needed<typeformer::model_parameters
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <cstddef>
#include <typeformer/io.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

auto from_memory(tf::inference_workspace<tf::DTransformer<float, tiny>>& ws,
                 std::span<const std::byte> bytes) {
    return tf::io::try_load_state(ws, bytes);  // error here
}
