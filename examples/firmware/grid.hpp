// The grid of GPTs over which docs/embedded.md finds each part's largest model (largest.cpp),
// and the STM32F405's largest int8 one (gpt_generate): byte tokens (N_V 259: 256 bytes and mask,
// bos, eos, as typeformer-train's byte tokenizer), l_max 32 as `tiny`, heads of 32 (one of 16 for
// d_e 16), d_mlp = 4·d_e, W_u tied to W_eᵀ.
//
//   grid<d_e, L>   one model of the grid
//   f405           grid<192, 2>, typeformer-train's `f405` preset with byte tokens: the most
//                  parameters (945,984; 995,456 B of int8 weights) whose int8 weights and KV-cache
//                  decoding fit the STM32F405 (gpt_generate.cpp proves that the next larger shapes
//                  of the grid do not fit)
//   gpt235k        the GPT gpt_finetune adapts on the STM32F405: 234,880 parameters, float
//                  weights (939,520 B) in flash; bytes as tokens (N_V 256), l_max 32, L 4, H 4 of
//                  d_attn = d_mid = 16, d_e 64, d_mlp 256, W_u its own (docs/training.md's "235k")
#pragma once

#include <cstddef>

namespace firmware {

template <std::size_t E, std::size_t Layers>
struct grid {
    static constexpr std::size_t N_V = 259, l_max = 32, L = Layers, d_attn = E < 32 ? E : 32,
                                 H = E / d_attn, d_e = E, d_mlp = 4 * E, d_mid = d_attn;
    static constexpr bool tied = true;
};
using f405 = grid<192, 2>;

struct gpt235k {
    static constexpr std::size_t N_V = 256, l_max = 32, L = 4, H = 4, d_e = 64, d_mlp = 256,
                                 d_attn = 16, d_mid = 16;
};

}  // namespace firmware
