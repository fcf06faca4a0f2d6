// The largest GPT whose int8 weights and KV-cache decoding fit the STM32F405 (gpt_generate):
// byte tokens (N_V 259: 256 bytes and mask, bos, eos, as typeformer-train's byte tokenizer),
// l_max 32 as `tiny`, heads of 32, d_mlp = 4·d_e, W_u tied to W_eᵀ, the shape of
// typeformer-train's `f405` preset with byte tokens. "Largest" is the most parameters over the
// grid d_e ∈ {64, 96, …, 256}, L ≥ 1 at these ratios, l_max 32: d_e 192, L 2, 945,984
// parameters, 995,456 B of int8 weights (docs/embedded.md; gpt_generate.cpp proves that the
// next larger shapes of the grid do not fit).
#pragma once

#include <cstddef>

namespace firmware {

template <std::size_t E, std::size_t Layers>
struct f405_shape {
    static constexpr std::size_t N_V = 259, l_max = 32, L = Layers, H = E / 32, d_e = E,
                                 d_mlp = 4 * E, d_attn = 32, d_mid = 32;
    static constexpr bool tied = true;
};
using f405 = f405_shape<192, 2>;

}  // namespace firmware
