// Mistake: Algorithm 8's decoder given the encoded context Z of another model.
// encode(model, z, ws) returns Z typed by the model that made it; the decoder's cross-attention reads
// Z with W_k, W_v (H·d_attn, d_e), so a Z from an encoder of another d_e cannot be decoded.
// Fix: encode z with this model.
// gallery: 18
// fixed: encoded_context<EDTransformer<float, wider_translator>> => encoded_context<EDTransformer<float, translator>>
// covers: forward(Z model)
// expect: in::forward
// first-error: Z_of<typeformer::EDTransformer<float, wider_translator>, model<typeformer::EDTransformer<float, translator>, first_difference<typeformer::d_e<32>, typeformer::d_e<16>
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

using namespace typeformer;

void translate(const EDTransformer<float, translator>& model,
               const encoded_context<EDTransformer<float, wider_translator>>& Z,
               std::span<const token> x, inference_workspace<EDTransformer<float, translator>>& ws) {
    auto P = forward(model, Z, x, ws);  // error here
    (void)P;
}
