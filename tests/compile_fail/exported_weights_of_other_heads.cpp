// Mistake: weights exported from one model, instantiated as another of the same size.
// The header was written from H = 2 heads of d_attn = d_mid = 16; the firmware's model has
// H = 4 heads of 8: the same 30,592 parameters, but W_q, W_k, W_v and W_o are other matrices.
// The header names every dimension and variant of the model it holds, and its weights<Model>
// checks them all against Model, not the count.
// Fix: the model the weights were exported from (weights_type, or a config with its dimensions).
// fourteen: 4 weights exported from another configuration (same parameter count)
// fixed: using gpt = typeformer::DTransformer<float, four_heads>; => using gpt = typeformer::DTransformer<float, weights_config>;
// covers: deploy::exported_as(Model)
// expect: in::exported_weights
// first-error: in::exported_weights, exported_for<typeformer::DTransformer<float, weights_config>, first_difference<typeformer::H<4>, typeformer::H<2>
// max-lines: 11
// clang-max-lines: 10
#include <typeformer/typeformer.hpp>

// What typeformer-export-header writes (the values elided):
struct weights_config {
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, L_enc = 2, L_dec = 2, H = 2, d_e = 32,
                                 d_mlp = 128, d_attn = 16, d_mid = 16, d_f = 32;
};
using weights_type = typeformer::DTransformer<float, weights_config>;
template <class Model,
          std::size_t = sizeof(::typeformer::deploy::exported_as<Model, weights_type>())>
inline constexpr Model weights = {};

struct four_heads {
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 4, d_e = 32, d_mlp = 128,
                                 d_attn = 8, d_mid = 8;
};
using gpt = typeformer::DTransformer<float, four_heads>;
const gpt& theta = weights<gpt>;  // error here
