// The model presets of the command-line tools: DESIGN.md's benchmark configurations, with N_V
// set by the tokenizer (byte-level: 259; BPE: 512, i.e. 253 merges) and W_u tied to W_eᵀ as
// GPT-2 does. A preset is a type; run_preset(name, tokenizer, f) calls f.template operator()
// <Model, Tokenizer>() for the one named, so each tool instantiates only what it dispatches to.
#pragma once

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include <typeformer/io.hpp>
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

// "DTransformer<float> N_V=259 l_max=128 L=4 H=4 d_e=128 d_mlp=512 d_attn=32 d_mid=32, tied W_u":
// a preset model as a person reads it (the checkpoint's signature also lists what a DTransformer
// does not use).
template <class Model>
std::string describe() {
    using tr = typename Model::traits;
    return fmt::format("{}<float> N_V={} l_max={} L={} H={} d_e={} d_mlp={} d_attn={} d_mid={}{}",
                       Model::name, tr::N_V::size, tr::l_max::size, tr::L, tr::H::size,
                       tr::d_e::size, tr::d_mlp::size, tr::d_attn::size, tr::d_mid::size,
                       tr::tied ? ", tied W_u" : "");
}

// Loads a checkpoint of typeformer-train: finds the preset whose model type the checkpoint names
// and calls f(model, tokenizer) with the loaded model (on the heap) and its tokenizer. Throws with
// the checkpoint's model signature when no preset matches, with the reader's reason when the file
// cannot be read as safetensors (missing, truncated, …), and "is not a typeformer checkpoint" only
// for a readable weights file that names no model.
template <class F>
void with_checkpoint(const std::string& path, F&& f) {
    std::string type;
    if (auto r = typeformer::io::try_checkpoint_model(path, type); !r)
        throw std::runtime_error(r.message);
    if (type.empty())
        throw std::runtime_error(path + " is not a typeformer checkpoint");
    bool found = false;
    for (const char* model : {"tiny", "small", "baby"})
        for (const char* tok : {"byte", "bpe"})
            run_preset(model, tok, [&]<class Model, class Tokenizer>() {
                if (found || typeformer::io::detail::model_signature<Model>() != type)
                    return;
                found = true;
                auto m = std::make_unique<Model>();
                std::string tok_state;
                if (auto r = typeformer::io::try_load_checkpoint_model(path, *m, &tok_state); !r)
                    throw std::runtime_error(r.message);
                // the checkpoint's tokenizer, checked once against the model's N_V: its encode
                // then gives ids typed with that vocabulary
                f(*m, typeformer::tokenize::for_model<Model>(tokenizer_from<Tokenizer>(tok_state)));
            });
    if (!found)
        throw std::runtime_error("no preset of this tool matches the checkpoint's model: " + type);
}

}  // namespace typeformer::tools
