// Mistake: a decoder layer configured with nanoGPT's block_size for the paper's l_max.
// l_max is the longest sequence a model takes (W_p has l_max columns, the caches l_max positions).
// Fix: static constexpr std::size_t l_max = 8.
// fixed: block_size = 8 => l_max = 8
// covers: decoder_layer(cfg)
// expect: model_config, cfg::l_max
// first-error: decoder_layer
// max-lines: 14
// clang-max-lines: 10
// clang-expect: cfg::l_max
// clang-first-error: decoder_layer, translator
#include <typeformer/typeformer.hpp>

struct translator {
    static constexpr std::size_t N_V = 32, block_size = 8, L = 1, H = 2, d_e = 16, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};

typeformer::decoder_layer<float, translator> layer;  // error here
