// Mistake: the decoder's logits (Algorithm 8, lines 10–20) with Z encoded by a wider model.
// Z = encoder(z) has the encoder's d_e rows; this decoder's cross-attention W_k, W_v take its own
// d_e = 16.
// Fix: encode z with this model: auto Z = encode(model, z, ws).
// fixed: tf::encoded_context<tf::EDTransformer<float, wider>>& Z => tf::encoded_context<seq2seq>& Z
// covers: logits(Z model)
// expect: in::logits
// first-error: Z_of<typeformer::EDTransformer<float, wider>, model<typeformer::EDTransformer<float, translator>, first_difference<typeformer::d_e<32>, typeformer::d_e<16>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct translator {  // Algorithm 8: l_x and l_z both hold 8 tokens
    static constexpr std::size_t N_V = 32, l_max = 8, L = 1, H = 2, d_e = 16, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};
struct wider {
    static constexpr std::size_t N_V = 32, l_max = 8, L = 1, H = 2, d_e = 32, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};
namespace tf = typeformer;
using seq2seq = tf::EDTransformer<float, translator>;

auto decode(const seq2seq& model, const tf::encoded_context<tf::EDTransformer<float, wider>>& Z,
            std::span<const tf::token> x, tf::inference_workspace<seq2seq>& ws) {
    return tf::logits(model, Z, x, ws);  // error here
}
