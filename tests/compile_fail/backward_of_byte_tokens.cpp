// Mistake: Algorithm 10's backward pass over byte-level tokens for a model of 64 tokens.
// backward(model, x, ws, grads) scatters dX[:, t] into column x[t] of dW_e (d_e, N_V = 64); byte-
// level ids go up to 258.
// Fix: tokens of the model's vocabulary (tokenize::for_model<Model>).
// fixed: tf::tokenize::byte_level::encode("hello") => tf::tokenize::tokens<tf::N_V<64>>::checked(std::vector<tf::token>{1, 2, 3})
// covers: backward(x)
// expect: in::backward
// first-error: tokens_of<typeformer::N_V<259>, model_N_V<typeformer::N_V<64>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/tokenize/byte.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

void learn(const tf::DTransformer<float, tiny>& model, tf::training_workspace<tf::DTransformer<float, tiny>>& ws,
           tf::DTransformer<float, tiny>& grads) {
    const auto x = tf::tokenize::byte_level::encode("hello");  // tokens<N_V<259>>
    tf::backward(model, x, ws, grads);  // error here
}
