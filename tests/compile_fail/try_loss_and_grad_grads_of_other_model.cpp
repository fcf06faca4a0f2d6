// Mistake: the status form of Algorithm 13's gradient added into the gradient of a wider model.
// The gradient has the model's type: ∇W_e of a model with d_e = 64 is (64, N_V), this model's is
// (32, N_V).
// Fix: grads of the model's own type.
// fixed: tf::DTransformer<float, wide>& grads => tf::DTransformer<float, tiny>& grads
// covers: try_loss_and_grad(grads model)
// expect: in::try_loss_and_grad
// first-error: grads<typeformer::DTransformer<float, wide>, model<typeformer::DTransformer<float, tiny>, first_difference<typeformer::d_e<64>, typeformer::d_e<32>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
struct wide {  // tiny with d_e = 64
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 64, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

tf::status step(const tf::DTransformer<float, tiny>& model, std::span<const tf::token> x,
                tf::DTransformer<float, wide>& grads,
                tf::training_workspace<tf::DTransformer<float, tiny>>& ws, float& loss) {
    return tf::try_loss_and_grad(model, x, grads, ws, loss);  // error here
}
