// Mistake: the seq2seq backward pass over a byte-level context (N_V = 259) for a model of 32 tokens.
// backward scatters the context's gradient into columns z[t] of dW_e (d_e, N_V = 32).
// Fix: tokenize z with tokenize::for_model<Model>.
// fixed: tf::tokenize::byte_level::encode("bonjour") => tf::tokenize::tokens<tf::N_V<32>>::checked(std::vector<tf::token>{1, 2, 3})
// covers: backward(z)
// expect: in::backward
// first-error: tokens_of<typeformer::N_V<259>, model_N_V<typeformer::N_V<32>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/tokenize/byte.hpp>

struct translator {  // Algorithm 8: l_x and l_z both hold 8 tokens
    static constexpr std::size_t N_V = 32, l_max = 8, L = 1, H = 2, d_e = 16, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};
namespace tf = typeformer;

void learn(const tf::EDTransformer<float, translator>& model, std::span<const tf::token> x,
           tf::training_workspace<tf::EDTransformer<float, translator>>& ws,
           tf::EDTransformer<float, translator>& grads) {
    const auto z = tf::tokenize::byte_level::encode("bonjour");  // tokens<N_V<259>>
    tf::backward(model, z, x, ws, grads);  // error here
}
