// The model presets of the command-line tools: DESIGN.md's benchmark configurations, with N_V
// set by the tokenizer (byte-level: 259; BPE: 512, i.e. 253 merges) and W_u tied to W_eᵀ as
// GPT-2 does. A preset is a type; run_preset(name, tokenizer, f) calls f.template operator()
// <Model, Tokenizer>() for the one named, so each tool instantiates only what it dispatches to.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

#include <typeformer/tokenize.hpp>
#include <typeformer/typeformer.hpp>

namespace typeformer::tools {

template <std::size_t NV>
struct tiny {
    static constexpr std::size_t N_V = NV, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
    static constexpr bool tied = true;
};
template <std::size_t NV>
struct small {
    static constexpr std::size_t N_V = NV, l_max = 128, L = 4, H = 4, d_e = 128, d_mlp = 512,
                                 d_attn = 32, d_mid = 32;
    static constexpr bool tied = true;
};
template <std::size_t NV>
struct baby {
    static constexpr std::size_t N_V = NV, l_max = 256, L = 6, H = 6, d_e = 384, d_mlp = 1536,
                                 d_attn = 64, d_mid = 64;
    static constexpr bool tied = true;
};

inline constexpr std::size_t bpe_vocab = 512;  // 256 bytes + 253 merges + mask, bos, eos

// Calls f.template operator()<Model, Tokenizer>() for the preset `name` ("tiny", "small",
// "baby") and tokenizer `tok` ("byte", "bpe").
template <class F>
decltype(auto) run_preset(std::string_view name, std::string_view tok, F&& f) {
    namespace tk = typeformer::tokenize;
    auto with = [&]<template <std::size_t> class P>() -> decltype(auto) {
        if (tok == "byte")
            return f
                .template operator()<DTransformer<float, P<tk::byte_level::N_V>>, tk::byte_level>();
        if (tok == "bpe")
            return f.template operator()<DTransformer<float, P<bpe_vocab>>, tk::bpe>();
        throw std::invalid_argument("unknown tokenizer '" + std::string(tok) + "' (byte or bpe)");
    };
    if (name == "tiny")
        return with.template operator()<tiny>();
    if (name == "small")
        return with.template operator()<small>();
    if (name == "baby")
        return with.template operator()<baby>();
    throw std::invalid_argument("unknown model '" + std::string(name) + "' (tiny, small or baby)");
}

// The tokenizer a checkpoint's string describes.
template <class Tokenizer>
Tokenizer tokenizer_from(const std::string& s) {
    if constexpr (std::is_same_v<Tokenizer, typeformer::tokenize::bpe>)
        return typeformer::tokenize::bpe::deserialize(s, "the checkpoint's tokenizer");
    else
        return {};
}

}  // namespace typeformer::tools
