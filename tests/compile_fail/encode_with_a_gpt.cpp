// Mistake: the encoder of Algorithm 8 run on a decoder-only model.
// encode(model, z, ws) computes Z of an EDTransformer's encoder (lines 1–9); a DTransformer has no
// encoder and no context z.
// Fix: an EDTransformer, or forward(model, x, ws) for the GPT.
// fixed: using gpt = tf::DTransformer<float, tiny>; => using gpt = tf::EDTransformer<float, tiny>;
// covers: encode(model)
// expect: in::encode
// first-error: model<typeformer::DTransformer<float, tiny>, needed<typeformer::EDTransformer<float, tiny>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;
using gpt = tf::DTransformer<float, tiny>;

auto context(const gpt& model, std::span<const tf::token> z, tf::inference_workspace<gpt>& ws) {
    return tf::encode(model, z, ws);  // error here
}
