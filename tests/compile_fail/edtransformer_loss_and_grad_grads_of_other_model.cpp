// Mistake: Algorithm 11's gradient added into the gradient of a wider seq2seq model.
// loss_and_grad(model, z, x, grads) adds ∇loss(θ) into grads, which has the model's type; the error
// names the first dimension in which the two differ (d_e).
// Fix: a gradient of EDTransformer<float, translator>.
// fixed: tf::EDTransformer<float, wider_translator>& grads => tf::EDTransformer<float, translator>& grads
// covers: loss_and_grad(grads model)
// expect: in::loss_and_grad
// first-error: grads<typeformer::EDTransformer<float, wider_translator>, model<typeformer::EDTransformer<float, translator>, first_difference<typeformer::d_e<32>, typeformer::d_e<16>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct translator {  // Algorithm 8: l_x and l_z both hold 8 tokens
    static constexpr std::size_t N_V = 32, l_max = 8, L = 1, H = 2, d_e = 16, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};
struct wider_translator {
    static constexpr std::size_t N_V = 32, l_max = 8, L = 1, H = 2, d_e = 32, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};

namespace tf = typeformer;

float step(const tf::EDTransformer<float, translator>& model, std::span<const tf::token> z,
           std::span<const tf::token> x, tf::EDTransformer<float, wider_translator>& grads) {
    return tf::loss_and_grad(model, z, x, grads);  // error here
}
