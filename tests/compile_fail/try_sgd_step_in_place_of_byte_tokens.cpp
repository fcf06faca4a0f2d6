// Mistake: a checked in-place SGD step of byte-level tokens for a model of 64 tokens.
// The step embeds x with W_e (d_e, N_V = 64) and reads the targets x[t+1] as rows of the logits:
// byte-level ids go up to 258.
// Fix: tokens of the model's vocabulary (tokenize::for_model<Model>).
// fixed: tf::tokenize::byte_level::encode("hello") => tf::tokenize::tokens<tf::N_V<64>>::checked(std::vector<tf::token>{1, 2, 3})
// covers: try_sgd_step_in_place(x)
// expect: in::try_sgd_step_in_place
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

tf::status step(tf::DTransformer<float, tiny>& theta, tf::step_workspace<tf::DTransformer<float, tiny>>& ws, float& l) {
    const auto x = tf::tokenize::byte_level::encode("hello");  // tokens<N_V<259>>
    return tf::try_sgd_step_in_place(theta, x, 0.01f, ws, l);  // error here
}
