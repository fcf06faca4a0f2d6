// Mistake: the loss and gradient of a BERT given a byte-level masked sequence x̃ (N_V = 259) for a vocabulary of 64.
// Algorithm 12's loss embeds the masked x̃ with W_e (d_e, N_V = 64); byte-level ids go up to 258
// and their mask token is 256.
// Fix: tokenize x_tilde with tokenize::for_model<Model>.
// fixed: tf::tokenize::byte_level::encode("the cat") => tf::tokenize::tokens<tf::N_V<64>>::checked(std::vector<tf::token>{1, 2, 3})
// covers: loss_and_grad(x_tilde)
// expect: in::loss_and_grad
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

float step(const tf::ETransformer<float, tiny>& model, std::span<const tf::token> x, tf::ETransformer<float, tiny>& grads, tf::training_workspace<tf::ETransformer<float, tiny>>& ws) {
    const auto x_tilde = tf::tokenize::byte_level::encode("the cat");  // tokens<N_V<259>>
    return tf::loss_and_grad(model, x_tilde, x, grads, ws);  // error here
}
