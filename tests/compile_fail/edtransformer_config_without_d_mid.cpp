// Mistake: a seq2seq EDTransformer configured without d_mid (the values' dimension).
// Algorithm 4 has two head dimensions: d_attn for queries and keys, d_mid for values (d_mid =
// d_attn in most models, but both must be said).
// Fix: static constexpr std::size_t d_mid = 8.
// fixed: d_attn = 8; => d_attn = 8, d_mid = 8;
// covers: EDTransformer(cfg)
// expect: model_config, cfg::d_mid
// first-error: EDTransformer
// max-lines: 14
// clang-max-lines: 10
// clang-expect: d_mid
// clang-first-error: EDTransformer, translator
#include <typeformer/typeformer.hpp>

struct translator {
    static constexpr std::size_t N_V = 32, l_max = 8, L = 1, H = 2, d_e = 16, d_mlp = 32,
                                 d_attn = 8;
};

typeformer::EDTransformer<float, translator> model;  // error here
