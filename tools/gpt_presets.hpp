// The GPTs that typeformer-generate imports from nanoGPT's and Hugging Face's files, as types:
// GPT-2 small and medium as Hugging Face publishes them (N_V 50257, gelu_new) and as nanoGPT
// trains them (N_V padded to 50304, nn.GELU()), nanoGPT's character-level shakespeare_char (65
// characters, its meta.pkl's vocabulary kept in the file by from-nanogpt) at its config's size and
// at its README's CPU size, and typeformer-train's byte-level presets (what `typeformer_torch.py
// to-nanogpt` / `to-hf` export and a run there brings back). A file's configuration picks the
// preset (io::import.hpp's checks: every dimension, the GELU form, ε); typeformer-inspect lists
// the presets a file matches.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <typeformer/io/import.hpp>
#include <typeformer/tokenize/byte.hpp>
#include <typeformer/tokenize/characters.hpp>
#include <typeformer/tokenize/gpt2.hpp>

#include "presets.hpp"

namespace typeformer::tools {

template <std::size_t NV, std::size_t l_max_, std::size_t L_, std::size_t H_, std::size_t d_e_,
          gelu_kind G>
struct gpt_cfg {
    static constexpr std::size_t N_V = NV, l_max = l_max_, L = L_, H = H_, d_e = d_e_,
                                 d_mlp = 4 * d_e_, d_attn = d_e_ / H_, d_mid = d_e_ / H_;
    static constexpr bool tied = true;
    static constexpr gelu_kind gelu = G;
    static constexpr double eps = 1e-5;
};
using gpt2_small_hf = gpt_cfg<50257, 1024, 12, 12, 768, gelu_kind::tanh>;      // "gpt2", 124M
using gpt2_medium_hf = gpt_cfg<50257, 1024, 24, 16, 1024, gelu_kind::tanh>;    // "gpt2-medium"
using gpt2_small_nanogpt = gpt_cfg<50304, 1024, 12, 12, 768, gelu_kind::erf>;  // train.py's
using gpt2_medium_nanogpt = gpt_cfg<50304, 1024, 24, 16, 1024, gelu_kind::erf>;
// nanoGPT's config/train_shakespeare_char.py (10.7M parameters), and its README's run on a CPU
// (--block_size=64 --n_layer=4 --n_head=4 --n_embd=128)
using shakespeare_char = gpt_cfg<65, 256, 6, 6, 384, gelu_kind::erf>;
using shakespeare_char_cpu = gpt_cfg<65, 64, 4, 4, 128, gelu_kind::erf>;

// GPT-2's tokenizer in a vocabulary padded past its 50257 tokens (nanoGPT pads to 50304, a
// multiple of 64): the extra ids are never produced by encode and print as nothing.
struct padded_gpt2 {
    tokenize::gpt2 g;
    std::size_t n;

    std::vector<token> encode(std::string_view text) const { return g.encode(text); }
    std::string piece(token t) const { return t < g.vocab_size() ? g.piece(t) : std::string(); }
    std::string decode(std::span<const token> ids) const {
        std::string s;
        for (const token t : ids)
            s += piece(t);
        return s;
    }
    std::size_t vocab_size() const noexcept { return n; }
    token eot() const noexcept { return g.eot(); }
};

// f.template operator()<Model, Tokenizer>(name) for every preset, Tokenizer being
// tokenize::gpt2, padded_gpt2, tokenize::characters or tokenize::byte_level.
template <class F>
void for_each_gpt_preset(F&& f) {
    namespace tk = typeformer::tokenize;
    f.template operator()<DTransformer<float, gpt2_small_hf>, tk::gpt2>(
        "gpt2 (GPT-2 small, Hugging Face)");
    f.template operator()<DTransformer<float, gpt2_medium_hf>, tk::gpt2>(
        "gpt2-medium (GPT-2 medium, Hugging Face)");
    f.template operator()<DTransformer<float, gpt2_small_nanogpt>, padded_gpt2>(
        "nanoGPT gpt2 (GPT-2 small as train.py trains it: N_V 50304, nn.GELU())");
    f.template operator()<DTransformer<float, gpt2_medium_nanogpt>, padded_gpt2>(
        "nanoGPT gpt2-medium (N_V 50304, nn.GELU())");
    f.template operator()<DTransformer<float, shakespeare_char>, tk::characters>(
        "nanoGPT shakespeare_char (train_shakespeare_char.py: 65 characters, block 256, 6 layers, "
        "6 heads, 384)");
    f.template operator()<DTransformer<float, shakespeare_char_cpu>, tk::characters>(
        "nanoGPT shakespeare_char on a CPU (its README: 65 characters, block 64, 4 layers, 4 "
        "heads, 128)");
    f.template operator()<DTransformer<float, tiny<tk::byte_level::N_V>>, tk::byte_level>(
        "tiny, byte tokens (typeformer-train)");
    f.template operator()<DTransformer<float, small<tk::byte_level::N_V>>, tk::byte_level>(
        "small, byte tokens (typeformer-train)");
    f.template operator()<DTransformer<float, baby<tk::byte_level::N_V>>, tk::byte_level>(
        "baby, byte tokens (typeformer-train)");
}

// Whether a GPT file's configuration is Model: every field it has (H, the GELU form and ε may
// be unknown when it is read from the tensors alone), its positions exactly l_max.
template <class Model>
bool gpt_preset_matches(const io::gpt_config& c, bool has_biases) {
    return io::detail::config_difference<Model>(c, has_biases).empty() && c.N_V && c.L && c.d_e &&
           c.n_positions == Model::traits::l_max::size;
}

// What a GPT file says about its model: its configuration, or (`from_tensors`) what its tensors
// say when it has none; `has_biases` whether it holds biases; the character vocabulary a
// converted nanoGPT file carries.
struct gpt_file_config {
    io::gpt_config config;
    bool from_tensors = false, has_biases = false;
    std::optional<tokenize::characters> vocabulary;
};

inline gpt_file_config read_gpt_file_config(const std::string& path, io::gpt_layout layout,
                                            const io::import_options& opt) {
    namespace d = io::detail;
    const std::string src = d::printable(path);
    d::open_file file;
    d::parsed_header header;
    io::result r = d::open_safetensors(path, src, file);
    if (r)
        r = d::parse_header(file.header, src, header);
    if (!r)
        throw std::runtime_error(r.message);
    gpt_file_config out;
    if (auto c = d::gpt_config_of(path, header.metadata, layout, opt, out.config); !c)
        throw std::runtime_error(c.message);
    for (const auto& t : header.tensors)
        out.has_biases = out.has_biases || (d::strip_prefixes(t.name).ends_with(".bias") &&
                                            !d::ignored_buffer(t.name));
    if (out.config.empty()) {
        out.config = io::gpt_config_from_tensors(header, layout);
        out.from_tensors = true;
    }
    if (layout == io::gpt_layout::nanogpt)
        out.vocabulary = d::nanogpt_vocabulary_of(header.metadata, src);
    return out;
}

}  // namespace typeformer::tools
