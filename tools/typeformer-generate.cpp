// typeformer-generate: loads a checkpoint written by typeformer-train, or GPT-2 small from
// Hugging Face's files, and continues a prompt with Algorithm 14 through the KV cache, streaming
// the text as it is sampled.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <typeformer/io.hpp>
#include <typeformer/io/import.hpp>
#include <typeformer/tokenize/gpt2.hpp>

#include "cli.hpp"
#include "presets.hpp"
#include "run.hpp"

namespace tf = typeformer;

// GPT-2 small as Hugging Face publishes it ("gpt2": model.safetensors, encoder.json, vocab.bpe):
// 124,439,808 parameters, W_u tied to W_eᵀ, tanh GELU (gelu_new), ε = 1e-5.
struct gpt2_small {
    static constexpr std::size_t N_V = 50257, l_max = 1024, L = 12, H = 12, d_e = 768, d_mlp = 3072,
                                 d_attn = 64, d_mid = 64;
    static constexpr bool tied = true;
    static constexpr auto gelu = tf::gelu_kind::tanh;
    static constexpr double eps = 1e-5;
};

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
            std::fflush(stdout);
            return tf::tools::interrupt_signal == 0;
        });
        y.insert(y.end(), part.begin(), part.end());
        stopped = part.size() < want || tf::tools::interrupt_signal != 0 ||
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

int main(int argc, char** argv) {
    tf::tools::generate_cli o;
    if (const auto code = tf::tools::parse(argc, argv, o))
        return *code;
    return tf::tools::run_tool("typeformer-generate", [&] {
        if (!o.hf_gpt2.empty()) {
            if (o.gpt2_vocab.empty() || o.gpt2_merges.empty())
                throw std::runtime_error("--hf-gpt2 needs --gpt2-vocab and --gpt2-merges");
            tf::tools::check_input_file(o.hf_gpt2, "--hf-gpt2");
            using model_t = tf::DTransformer<float, gpt2_small>;
            // checked once against the model's N_V: its encode then gives typed ids
            const auto tokenizer = tf::tokenize::for_model<model_t>(
                tf::tokenize::gpt2::load(o.gpt2_vocab, o.gpt2_merges));
            auto m = std::make_unique<model_t>();
            tf::io::import_hf_gpt2(*m, o.hf_gpt2);
            fmt::print(stderr, "GPT-2 small: {}\n", tf::tools::describe<model_t>());
            const tf::token eot = tokenizer.tokenizer().eot();
            return generate(
                *m, tokenizer, o,
                o.stop_at_eot ? std::span<const tf::token>(&eot, 1) : std::span<const tf::token>());
        }
        int rc = 0;
        tf::tools::with_checkpoint(o.checkpoint, [&](const auto& m, const auto& tokenizer) {
            rc = generate(m, tokenizer, o, {});
        });
        return rc;
    });
}
