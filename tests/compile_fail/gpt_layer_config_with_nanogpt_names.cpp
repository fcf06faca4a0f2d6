// Mistake: a GPT layer configured with nanoGPT's n_head for the paper's H.
// nanoGPT's GPTConfig says n_layer, n_head, n_embd, block_size, vocab_size; the paper (and a
// config here) says L, H, d_e, l_max, N_V.
// Fix: static constexpr std::size_t H = 2.
// fixed: n_head = 2 => H = 2
// covers: gpt_layer(cfg)
// expect: model_config, cfg::H
// first-error: gpt_layer
// max-lines: 14
// clang-max-lines: 10
// clang-expect: cfg::H
// clang-first-error: gpt_layer, nano
#include <typeformer/typeformer.hpp>

struct nano {  // as in nanoGPT's GPTConfig
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, n_head = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};

typeformer::gpt_layer<float, nano> layer;  // error here
