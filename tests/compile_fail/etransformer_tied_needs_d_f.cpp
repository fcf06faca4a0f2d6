// Mistake: BERT (Algorithm 9) with a tied unembedding W_u = W_eᵀ and d_f ≠ d_e.
// Line 12 applies W_u to the d_f rows of line 10's GELU(W_f X + b_f 1ᵀ), but W_eᵀ has d_e columns;
// the model type refuses the configuration with a sentence, not a product deep inside forward.
// Fix: d_f = d_e, or an untied W_u (N_V, d_f).
// fixed: d_f = 12; => d_f = 8;
// covers: ETransformer(cfg)
// expect: ETransformer: tied W_u = W_eᵀ needs d_f == d_e
// first-error: static assertion failed, tied W_u
// max-lines: 8
// clang-max-lines: 9
// clang-expect: needs d_f == d_e
// clang-first-error: static_assert failed, d_f<12>::size == d_e<8>::size
#include <typeformer/typeformer.hpp>

struct bert_tied {
    static constexpr std::size_t N_V = 32, l_max = 8, L = 1, H = 2, d_e = 8, d_mlp = 16, d_attn = 4,
                                 d_mid = 4, d_f = 12;
    static constexpr bool tied = true;
};

typeformer::ETransformer<float, bert_tied> model;  // error here
