// Mistake: the masked-LM loss of a byte-level masked sequence for a BERT of 64 tokens.
// x̃ is embedded with W_e (d_e, N_V = 64); byte-level ids go up to 258.
// Fix: mask with tokenize::for_model<Model>.
// fixed: tf::tokenize::byte_level::encode("the cat") => tf::tokenize::tokens<tf::N_V<64>>::checked(std::vector<tf::token>{1, 2, 3})
// covers: try_loss_and_grad_targets(x_tilde)
// expect: in::try_loss_and_grad_targets
// first-error: typeformer::tokens_of<typeformer::N_V<259, typeformer::model_N_V<typeformer::N_V<64
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/tokenize/byte.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

using bert = tf::ETransformer<float, tiny>;
tf::status masked_loss(const bert& model, std::span<const tf::token> targets, bert& grads,
                       tf::training_workspace<bert>& ws, float& loss) {
    const auto x_tilde = tf::tokenize::byte_level::encode("the cat");  // tokens<N_V<259>>
    return tf::try_loss_and_grad_targets(model, x_tilde, targets, grads, ws, loss);  // error here
}
