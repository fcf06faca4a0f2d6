// Mistake: the masked-LM loss and gradient in the workspace of a wider BERT.
// try_loss_and_grad_targets runs Algorithm 9 forward and backward in the workspace: its
// activations are a model's with d_e = 64.
// Fix: training_workspace<ETransformer<float, tiny>>.
// fixed: float, wide> => float, tiny>
// covers: try_loss_and_grad_targets(ws)
// expect: in::try_loss_and_grad_targets
// first-error: typeformer::workspace_of<typeformer::ETransformer<float, wide, typeformer::model<typeformer::ETransformer<float, tiny, typeformer::first_difference<typeformer::d_e<64>, typeformer::d_e<32
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

using bert = tf::ETransformer<float, tiny>;
tf::status masked_loss(const bert& model, std::span<const tf::token> x_tilde,
                       std::span<const tf::token> targets, bert& grads,
                       tf::training_workspace<tf::ETransformer<float, wide>>& ws, float& loss) {
    return tf::try_loss_and_grad_targets(model, x_tilde, targets, grads, ws, loss);  // error here
}
