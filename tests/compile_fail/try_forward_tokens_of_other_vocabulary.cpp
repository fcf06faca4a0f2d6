// Mistake: the status form of Algorithm 10's forward pass given byte-level tokens for a model with N_V = 64.
// try_forward checks ids at run time, but a typed sequence says its vocabulary in its type: N_V =
// 259 against the model's 64.
// Fix: tokens of the model's vocabulary (tokenize::for_model<Model>).
// fixed: tf::tokenize::tokens<tf::N_V<259>>& x => tf::tokenize::tokens<tf::N_V<64>>& x
// covers: try_forward(x model)
// expect: in::try_forward
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
using gpt = tf::DTransformer<float, tiny>;

tf::status run(const gpt& model, const tf::tokenize::tokens<tf::N_V<259>>& x,
               tf::inference_workspace<gpt>& ws) {
    return tf::try_forward(model, x, ws);  // error here
}
