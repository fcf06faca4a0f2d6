// Mistake: Algorithm 12's masked loss (explicit targets) computed for a GPT.
// try_loss_and_grad_targets scores the masked positions of x̃ with an ETransformer's bidirectional
// P (Algorithm 12); a DTransformer predicts the next token (Algorithm 13) and has loss_and_grad.
// Fix: an ETransformer of the same configuration, or loss_and_grad for the GPT.
// fixed: using gpt = tf::DTransformer<float, tiny>; => using gpt = tf::ETransformer<float, tiny>;
// covers: try_loss_and_grad_targets(model)
// expect: in::try_loss_and_grad_targets
// first-error: model<typeformer::DTransformer<float, tiny>, needed<typeformer::ETransformer<float, tiny>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;
using gpt = tf::DTransformer<float, tiny>;

tf::status masked_loss(const gpt& model, std::span<const tf::token> x_tilde,
                       std::span<const tf::token> targets, gpt& grads,
                       tf::training_workspace<gpt>& ws, float& loss) {
    return tf::try_loss_and_grad_targets(model, x_tilde, targets, grads, ws, loss);  // error here
}
