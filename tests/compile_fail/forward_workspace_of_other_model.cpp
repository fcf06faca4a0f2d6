// Mistake: Algorithm 10's forward pass with the workspace of another model.
// A workspace's activations are sized by its model's type (d_e, l_max, the layers); this one belongs
// to a model with more heads.
// Fix: inference_workspace<DTransformer<float, tiny>>.
// fixed: inference_workspace<DTransformer<float, more_heads>>& ws => inference_workspace<DTransformer<float, tiny>>& ws
// covers: forward(ws model)
// expect: in::forward
// first-error: workspace_of<typeformer::DTransformer<float, more_heads>, model<typeformer::DTransformer<float, tiny>, first_difference<typeformer::H<4>, typeformer::H<2>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT: d_attn = d_mid = 16
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};

struct more_heads {
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 4, d_e = 32, d_mlp = 128,
                                 d_attn = 8, d_mid = 8;
};
using namespace typeformer;

void predict(const DTransformer<float, tiny>& model, std::span<const token> x,
             inference_workspace<DTransformer<float, more_heads>>& ws) {
    auto P = forward(model, x, ws);  // error here
    (void)P;
}
