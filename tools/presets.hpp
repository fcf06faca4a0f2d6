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
#include <utility>

#include <fmt/format.h>

#include <typeformer/io.hpp>
#include <typeformer/tokenize.hpp>
#include <typeformer/typeformer.hpp>

#include "run.hpp"

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

// The STM32F405's: the largest GPT whose int8 weights (typeformer-export-header --q8) and KV-cache
// decoding fit the part's 1 MiB flash and 128 KiB SRAM, with byte tokens (BPE's 512 ids would
// not fit the flash): 945,984 parameters, 995,456 B of int8 weights (docs/embedded.md).
template <std::size_t NV>
struct f405 {
    static constexpr std::size_t N_V = NV, l_max = 32, L = 2, H = 6, d_e = 192, d_mlp = 768,
                                 d_attn = 32, d_mid = 32;
    static constexpr bool tied = true;
};

inline constexpr std::size_t bpe_vocab = 512;  // 256 bytes + 253 merges + mask, bos, eos

// Every (model, tokenizer) preset: f405 has byte tokens only.
inline constexpr std::pair<const char*, const char*> presets[] = {
    {"tiny", "byte"}, {"tiny", "bpe"}, {"small", "byte"}, {"small", "bpe"},
    {"baby", "byte"}, {"baby", "bpe"}, {"f405", "byte"}};

// Calls f.template operator()<Model, Tokenizer>() for the preset `name` ("tiny", "small",
// "baby", "f405") and tokenizer `tok` ("byte", "bpe"; f405: byte only).
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
    if (name == "f405") {  // one model type: its BPE form would not fit the part it is sized for
        if (tok != "byte")
            throw std::invalid_argument(
                "the f405 preset takes byte tokens: with BPE's " + std::to_string(bpe_vocab) +
                " ids its int8 weights would not fit the STM32F405's flash");
        return f
            .template operator()<DTransformer<float, f405<tk::byte_level::N_V>>, tk::byte_level>();
    }
    throw std::invalid_argument("unknown model '" + std::string(name) +
                                "' (tiny, small, baby or f405)");
}

// The tokenizer a checkpoint's string describes.
template <class Tokenizer>
Tokenizer tokenizer_from(const std::string& s) {
    if constexpr (std::is_same_v<Tokenizer, typeformer::tokenize::bpe>)
        return typeformer::tokenize::bpe::deserialize(s, "the checkpoint's tokenizer");
    else
        return {};
}

// "N_V = 259, l_max = 128, L = 4, H = 4, d_e = 128, d_mlp = 512, d_attn = 32, d_mid = 32, W_u tied
// to W_eᵀ, layer norm ε = 1e-05": a preset model in the paper's symbols, only those its
// architecture has (a DTransformer has no encoder, so no L_enc, L_dec, d_f).
template <class Model>
std::string describe() {
    using tr = typename Model::traits;
    return fmt::format(
        "N_V = {}, l_max = {}, L = {}, H = {}, d_e = {}, d_mlp = {}, d_attn = {}, d_mid = {}{}, "
        "{} ε = {:g}, GELU ({})",
        tr::N_V::size, tr::l_max::size, tr::L, tr::H::size, tr::d_e::size, tr::d_mlp::size,
        tr::d_attn::size, tr::d_mid::size, tr::tied ? ", W_u tied to W_eᵀ" : "",
        tr::norm == norm_kind::rms_norm ? "RMS norm" : "layer norm", tr::eps,
        tr::gelu == gelu_kind::tanh ? "tanh" : "erf");
}

// The keys typeformer-train adds to a checkpoint's metadata (io::save_checkpoint's `extra`).
inline constexpr const char* key_model = "typeformer-train.model";          // "small"
inline constexpr const char* key_tokenizer = "typeformer-train.tokenizer";  // "byte"

inline std::string metadata_value(const io::metadata& md, const std::string& key) {
    for (const auto& [k, v] : md)
        if (k == key)
            return v;
    return {};
}

// What a checkpoint file is, read from its header only: the preset (model and tokenizer names)
// of this tool that it holds, or a one-line reason why it is none.
struct checkpoint_info {
    std::string model, tokenizer;  // preset names
    io::metadata md;
};

inline checkpoint_info inspect_checkpoint(const std::string& path, bool for_training) {
    check_input_file(path, "the checkpoint");
    checkpoint_info info;
    if (auto r = io::try_read_metadata(path, info.md); !r) {
        if (r.code != io::status::malformed_header)
            throw std::runtime_error(r.message);
        const std::size_t colon = r.message.find("': ");
        throw std::runtime_error(
            path + " is not a readable checkpoint: " +
            (colon == std::string::npos ? r.message : r.message.substr(colon + 3)));
    }
    const std::string type = io::model_type(info.md);  // signature.hpp's entries, or an old line
    const bool training = !metadata_value(info.md, "typeformer.checkpoint").empty();
    if (type.empty() || (for_training && !training))
        throw std::runtime_error(
            path + " is not a training checkpoint" +
            (type.empty() ? std::string(" (a weights file that names no typeformer model)")
                          : std::string(" (weights without the training state)")));
    info.model = metadata_value(info.md, key_model);
    info.tokenizer = metadata_value(info.md, key_tokenizer);
    if (info.model.empty() || info.tokenizer.empty())  // an older checkpoint: match the type
        for (const auto& [model, tok] : presets)
            run_preset(model, tok, [&]<class Model, class Tokenizer>() {
                if (typeformer::io::detail::model_signature<Model>() == type)
                    info.model = model, info.tokenizer = tok;
            });
    bool known = false;
    for (const auto& [model, tok] : presets)
        known = known || (info.model == model && info.tokenizer == tok);
    if (!known)
        throw std::runtime_error(path +
                                 " holds a model that is none of this tool's presets "
                                 "(tiny, small or baby with byte or bpe tokens, f405 with byte "
                                 "tokens): " +
                                 type);
    return info;
}

// The reason a checkpoint's weights cannot be loaded, for a person: the reader's message
// without the library's words.
inline std::string load_problem(const io::result& r, const std::string& path) {
    if (r.code == io::status::non_finite)
        return path +
               " holds NaN or infinite weights: the run that wrote it diverged; use an "
               "earlier checkpoint";
    return r.message;
}

// Loads a checkpoint of typeformer-train: finds the preset it holds and calls f(model, tokenizer)
// with the loaded model (on the heap) and its tokenizer. A file that is missing, not a file, not
// a checkpoint or of no preset is refused with one line saying so.
template <class F>
void with_checkpoint(const std::string& path, F&& f) {
    const checkpoint_info info = inspect_checkpoint(path, false);
    run_preset(info.model, info.tokenizer, [&]<class Model, class Tokenizer>() {
        auto m = std::make_unique<Model>();
        std::string tok_state;
        if (auto r = typeformer::io::try_load_checkpoint_model(path, *m, &tok_state); !r)
            throw std::runtime_error(load_problem(r, path));
        // the checkpoint's tokenizer, checked once against the model's N_V: its encode then
        // gives ids typed with that vocabulary
        f(*m, typeformer::tokenize::for_model<Model>(tokenizer_from<Tokenizer>(tok_state)));
    });
}

}  // namespace typeformer::tools
