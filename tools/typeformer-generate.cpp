// typeformer-generate: loads a checkpoint written by typeformer-train, or a GPT from Hugging
// Face's or nanoGPT's files (onto the preset of gpt_presets.hpp its configuration matches), and
// continues a prompt with Algorithm 14 through the KV cache, streaming the text as it is sampled.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include <typeformer/io.hpp>
#include <typeformer/io/import.hpp>
#include <typeformer/tokenize/gpt2.hpp>

#include "cli.hpp"
#include "gpt_presets.hpp"
#include "presets.hpp"
#include "run.hpp"

namespace tf = typeformer;

static_assert(tf::tools::no_top_k == tf::sampling::all);

// Algorithm 14 through the KV cache, printing each token's text to stdout as it is sampled, then
// one line of statistics to stderr (and the ids under --ids). Returns the exit code.
template <class Model, class Tokenizer>
int generate(const Model& m, const Tokenizer& tokenizer, const tf::tools::generate_cli& o,
             std::span<const tf::token> stop) {
    constexpr std::size_t l_max = Model::l_max::size, N_V = Model::N_V::size;
    if (o.top_k != tf::tools::no_top_k && o.top_k > N_V)
        throw std::runtime_error(
            fmt::format("--top-k must be from 1 to this model's N_V = {}, got {}", N_V, o.top_k));
    auto x = tokenizer.encode(o.prompt);
    if (x.empty())
        throw std::runtime_error("the prompt is empty: give at least one character with --prompt");
    if (x.size() > l_max) {
        if (!o.window)
            throw std::runtime_error(fmt::format(
                "the prompt is {} tokens but this model's context (l_max) is {}: shorten it, or "
                "leave out --no-window to keep its last {} tokens",
                x.size(), l_max, l_max));
        x.erase(x.begin(), x.end() - static_cast<std::ptrdiff_t>(l_max));
    }
    std::size_t n = o.tokens;
    if (n == tf::tools::tokens_fill_context || (n == tf::tools::tokens_unlimited && !o.window))
        n = l_max - x.size();
    else if (!o.window && n > l_max - x.size())
        throw std::runtime_error(fmt::format(
            "-n {} does not fit the context: the prompt is {} tokens and l_max is {} (at most {} "
            "more; -n -2 fills the context; without --no-window the context slides)",
            n, x.size(), l_max, l_max - x.size()));
    if (o.random_seed)
        fmt::print(stderr, "seed {}\n", o.seed);
    auto cache = std::make_unique<tf::kv_cache<Model>>();
    tf::rng gen(o.seed);
    const tf::sampling opt{
        .tau = o.tau,
        .top_k = o.top_k,
        .top_p = o.top_p,
        .stop = stop,
        .when_full = o.window ? tf::context_policy::sliding_window : tf::context_policy::error};
    fmt::print("{}", o.prompt);
    std::fflush(stdout);
    tf::tools::catch_interrupts();
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<tf::token> y, context(x.begin(), x.end());
    bool stopped = false;  // a stop token, or an interrupt
    // -n -1 runs in pieces: each continues from the last l_max / 2 tokens of the context
    constexpr std::size_t piece = 1 << 16;
    while (!stopped && y.size() < n) {
        const std::size_t want = std::min(n - y.size(), piece);
        const auto part = tf::DInference(m, *cache, context, want, opt, gen, [&](tf::token t) {
            fmt::print("{}", tokenizer.piece(t));
            // output that cannot be written (a full disk) ends the run: -n -1 would go on forever
            return std::fflush(stdout) == 0 && tf::tools::interrupt_signal == 0;
        });
        y.insert(y.end(), part.begin(), part.end());
        stopped = part.size() < want || tf::tools::interrupt_signal != 0 || std::ferror(stdout) ||
                  (!part.empty() && tf::detail::is_stop(stop, part.back()));
        context.insert(context.end(), part.begin(), part.end());
        if (context.size() > l_max / 2)
            context.erase(context.begin(), context.end() - static_cast<std::ptrdiff_t>(l_max / 2));
    }
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    fmt::print("\n");
    std::fflush(stdout);
    fmt::print(stderr, "{} tokens in {:.3f}s: {:.0f} tokens/s (prompt {} tokens)\n", y.size(), s,
               static_cast<double>(y.size()) / std::max(s, 1e-9), x.size());
    if (o.ids)
        fmt::print(stderr, "prompt ids: {}\nids: {}\n", fmt::join(x, " "), fmt::join(y, " "));
    return tf::tools::interrupt_signal != 0 ? tf::tools::interrupted_exit_code() : 0;
}

// The vocabularies of the presets: GPT-2's (50257 tokens, or 50304 as nanoGPT pads it), the
// characters a converted nanoGPT file carries, typeformer's bytes.
enum class vocabulary { gpt2, characters, bytes };

template <class Tokenizer>
constexpr vocabulary vocabulary_of =
    std::is_same_v<Tokenizer, tf::tokenize::byte_level>   ? vocabulary::bytes
    : std::is_same_v<Tokenizer, tf::tokenize::characters> ? vocabulary::characters
                                                          : vocabulary::gpt2;

// Which vocabulary a GPT file's N_V is, checked against what was given (GPT-2's files) and what
// the file carries (characters): a mismatch is one line naming both sides.
vocabulary file_vocabulary(const std::string& path, const tf::tools::gpt_file_config& file,
                           const std::optional<tf::tokenize::gpt2>& gpt2) {
    const std::size_t N_V = file.config.N_V.value_or(0);
    const std::string nv =
        fmt::format("N_V = {} ({})", N_V,
                    file.from_tensors                    ? "its wte.weight"
                    : file.config.source == "model_args" ? "model_args' vocab_size"
                                                         : "config.json's vocab_size");
    const std::string given =
        gpt2 ? fmt::format("GPT-2's vocabulary (--gpt2-vocab) has {} tokens", gpt2->vocab_size())
             : std::string();
    if (file.vocabulary) {
        if (file.vocabulary->vocab_size() != N_V)
            throw std::runtime_error(fmt::format(
                "{}: its character vocabulary (nanogpt.vocabulary) has {} characters but {}", path,
                file.vocabulary->vocab_size(), nv));
        if (gpt2)
            throw std::runtime_error(fmt::format(
                "{} is a character-level model ({} characters from its meta.pkl, {}) but {}: "
                "leave out --gpt2-vocab and --gpt2-merges",
                path, N_V, nv, given));
        return vocabulary::characters;
    }
    if (N_V == 259) {
        if (gpt2)
            throw std::runtime_error(fmt::format(
                "{} has {}, typeformer's byte tokens, but {}: leave out --gpt2-vocab and "
                "--gpt2-merges",
                path, nv, given));
        return vocabulary::bytes;
    }
    const bool gpt2_sized = N_V == 50257 || N_V == 50304;
    if (gpt2 && gpt2_sized && N_V < gpt2->vocab_size())
        throw std::runtime_error(fmt::format("{} has {} but {}", path, nv, given));
    if (gpt2_sized)
        return vocabulary::gpt2;
    if (gpt2)
        throw std::runtime_error(fmt::format(
            "{} has {} but {} (50304 as nanoGPT pads it): the model has another vocabulary", path,
            nv, given));
    throw std::runtime_error(fmt::format(
        "{} has {}, the vocabulary of no tokenizer here: GPT-2's 50257 tokens (nanoGPT pads them "
        "to 50304; give --gpt2-vocab encoder.json --gpt2-merges vocab.bpe), typeformer's 259 "
        "bytes, or the characters a converted nanoGPT file carries (a character model: "
        "`typeformer_torch.py from-nanogpt ckpt.pt out.safetensors --meta meta.pkl`)",
        path, nv));
}

// A GPT from Hugging Face's or nanoGPT's files: the preset its configuration matches, imported
// (and checked) by io/import.hpp, with the tokenizer of its vocabulary. No preset: the file's
// configuration and the presets.
int generate_gpt(const tf::tools::generate_cli& o) {
    const bool hf = !o.hf_gpt2.empty();
    const std::string& path = hf ? o.hf_gpt2 : o.nanogpt;
    tf::tools::check_input_file(path, hf ? "--hf-gpt2" : "--nanogpt");
    const auto layout = hf ? tf::io::gpt_layout::hf_gpt2 : tf::io::gpt_layout::nanogpt;
    const tf::io::import_options opt{.config = o.config, .accept_no_config = o.accept_no_config};
    const auto file = tf::tools::read_gpt_file_config(path, layout, opt);
    std::optional<tf::tokenize::gpt2> gpt2;
    if (!o.gpt2_vocab.empty())
        gpt2 = tf::tokenize::gpt2::load(o.gpt2_vocab, o.gpt2_merges);
    const vocabulary kind = file_vocabulary(path, file, gpt2);
    if (kind == vocabulary::gpt2 && !gpt2)
        throw std::runtime_error(
            "this model's vocabulary is GPT-2's: give --gpt2-vocab encoder.json and "
            "--gpt2-merges vocab.bpe");
    int rc = -1;
    std::string presets;
    tf::tools::for_each_gpt_preset([&]<class Model, class Tokenizer>(std::string_view name) {
        presets += fmt::format("\n  {}: {}", name, tf::tools::describe<Model>());
        if (rc != -1 || vocabulary_of<Tokenizer> != kind ||
            !tf::tools::gpt_preset_matches<Model>(file.config, file.has_biases))
            return;
        constexpr std::size_t N_V = Model::traits::N_V::size;
        const auto tokenizer = tf::tokenize::for_model<Model>([&]() -> Tokenizer {
            if constexpr (std::is_same_v<Tokenizer, tf::tools::padded_gpt2>)
                return {*gpt2, N_V};
            else if constexpr (vocabulary_of<Tokenizer> == vocabulary::gpt2)
                return *gpt2;
            else if constexpr (vocabulary_of<Tokenizer> == vocabulary::characters)
                return *file.vocabulary;
            else
                return {};
        }());
        (void)tokenizer.encode(o.prompt);  // a prompt the vocabulary cannot encode: before the
                                           // weights are read
        auto m = std::make_unique<Model>();
        if (hf)
            tf::io::import_hf_gpt2(*m, path, opt);
        else if constexpr (Model::traits::gelu == tf::gelu_kind::erf)  // nanoGPT's nn.GELU()
            tf::io::import_nanogpt(*m, path, opt);
        fmt::print(stderr, "{}: {}\n", name, tf::tools::describe<Model>());
        if constexpr (vocabulary_of<Tokenizer> != vocabulary::gpt2) {
            rc = generate(*m, tokenizer, o, {});
        } else {
            const tf::token eot = tokenizer.tokenizer().eot();
            rc = generate(
                *m, tokenizer, o,
                o.stop_at_eot ? std::span<const tf::token>(&eot, 1) : std::span<const tf::token>());
        }
    });
    if (rc == -1) {
        const tf::io::signature sig = tf::io::gpt_signature(file.config);
        throw std::runtime_error(fmt::format(
            "{} holds a GPT that no preset of this tool matches: {} ({}{}); `typeformer-inspect "
            "{}` prints its C++ config. The presets:{}",
            path, tf::io::describe(sig), file.from_tensors ? "read from its tensors" : "its ",
            file.from_tensors ? (sig.H ? "" : ", H unknown") : file.config.source, path, presets));
    }
    return rc;
}

int main(int argc, char** argv) {
    tf::tools::generate_cli o;
    if (const auto code = tf::tools::parse(argc, argv, o))
        return *code;
    return tf::tools::run_tool("typeformer-generate", [&] {
        if (!o.hf_gpt2.empty() || !o.nanogpt.empty())
            return generate_gpt(o);
        int rc = 0;
        tf::tools::with_checkpoint(o.checkpoint, [&](const auto& m, const auto& tokenizer) {
            rc = generate(m, tokenizer, o, {});
        });
        return rc;
    });
}
