// Mistake: Algorithm 10's logits written into the workspace of a wider model.
// A workspace's activations are sized by its model's type: the stream X (d_e, l_max) of the model
// it was made for has d_e = 64 rows, this model's has 32.
// Fix: inference_workspace<DTransformer<float, tiny>>, one per model.
// fixed: float, wide> => float, tiny>
// covers: logits(ws)
// expect: in::logits
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

void score(const tf::DTransformer<float, tiny>& model, std::span<const tf::token> x,
           tf::inference_workspace<tf::DTransformer<float, wide>>& ws) {
    auto P = tf::logits(model, x, ws);  // error here
    (void)P;
}
