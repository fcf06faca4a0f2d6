// Mistake: a DTransformer configured with PyTorch's name d_model for the paper's d_e.
// A config names the paper's dimensions: N_V, l_max, L, H, d_e, d_mlp, d_attn, d_mid (DESIGN.md);
// nn.Transformer's d_model is d_e here.
// Fix: static constexpr std::size_t d_e = 32.
// fixed: d_model = 32 => d_e = 32
// covers: DTransformer(cfg)
// expect: model_config, cfg::d_e
// first-error: DTransformer
// max-lines: 14
// clang-max-lines: 10
// clang-expect: d_e
// clang-first-error: DTransformer, gpt_config
#include <typeformer/typeformer.hpp>

struct gpt_config {  // as in PyTorch
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_model = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};

typeformer::DTransformer<float, gpt_config> model;  // error here
