// The firmware's model: DESIGN.md's `tiny` GPT (a DTransformer, Algorithm 10) and its alphabet,
// shared by the host program that trains and exports it and by the firmware programs.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

#include <typeformer/typeformer.hpp>

namespace firmware {

namespace tf = typeformer;

struct tiny {
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
using gpt = tf::DTransformer<float, tiny>;

// 64 characters, one token each; upper case folds to lower, anything else is a space.
inline constexpr std::string_view alphabet =
    "abcdefghijklmnopqrstuvwxyz0123456789 \n.,;:'\"()-/!?&*[]<>=_%#@+$~";
static_assert(alphabet.size() == tiny::N_V);

constexpr tf::token encode(char c) {
    if (c >= 'A' && c <= 'Z')
        c = static_cast<char>(c - 'A' + 'a');
    const std::size_t i = alphabet.find(c);
    return static_cast<tf::token>(i == std::string_view::npos ? alphabet.find(' ') : i);
}

// text → tokens in out (as many as fit); returns the count.
constexpr std::size_t encode(std::string_view text, std::span<tf::token> out) {
    std::size_t n = 0;
    for (; n < text.size() && n < out.size(); ++n)
        out[n] = encode(text[n]);
    return n;
}

}  // namespace firmware
