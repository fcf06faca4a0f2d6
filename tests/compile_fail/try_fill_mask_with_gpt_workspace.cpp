// Mistake: the status form of fill-mask run in a GPT's workspace.
// An ETransformer's workspace holds its post-norm layers' activations and the (d_f, ℓ) projection;
// a DTransformer's has neither.
// Fix: inference_workspace<ETransformer<float, tiny>>.
// fixed: tf::inference_workspace<tf::DTransformer<float, tiny>>& ws => tf::inference_workspace<tf::ETransformer<float, tiny>>& ws
// covers: try_fill_mask(ws model)
// expect: in::fill_mask
// first-error: workspace_of<typeformer::DTransformer<float, tiny>, model<typeformer::ETransformer<float, tiny>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;
using bert = tf::ETransformer<float, tiny>;

tf::status fill(const bert& model, std::span<const tf::token> x_tilde,
                tf::inference_workspace<tf::DTransformer<float, tiny>>& ws,
                tf::sampling_scratch<float, 64>& scratch, std::span<std::size_t> positions,
                std::span<tf::token> top, std::size_t& n) {
    return tf::try_fill_mask(model, x_tilde, 3, ws, scratch, positions, top, n);  // error here
}
