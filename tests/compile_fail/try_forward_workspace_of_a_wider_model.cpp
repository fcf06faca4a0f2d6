// Mistake: the checked forward pass into the workspace of a wider model.
// try_forward writes X (d_e, l_x) and P (N_V, l_x) into the workspace: its buffers are those of
// the model it was made for, whose d_e is 64, not 32.
// Fix: inference_workspace<DTransformer<float, tiny>>.
// fixed: float, wide> => float, tiny>
// covers: try_forward(ws)
// expect: in::try_forward
// first-error: workspace_of<typeformer::DTransformer<float, wide>, model<typeformer::DTransformer<float, tiny>
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

tf::status predict(const tf::DTransformer<float, tiny>& model, std::span<const tf::token> x,
                   tf::inference_workspace<tf::DTransformer<float, wide>>& ws) {
    return tf::try_forward(model, x, ws);  // error here
}
