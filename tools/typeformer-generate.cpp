// typeformer-generate: loads a checkpoint written by typeformer-train, or GPT-2 small from
// Hugging Face's files, and continues a prompt with Algorithm 14 through the KV cache, streaming
// the text as it is sampled.
#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <span>
#include <string>

#include <fmt/format.h>

#include <typeformer/io.hpp>
#include <typeformer/io/import.hpp>
#include <typeformer/tokenize/gpt2.hpp>

#include "cli.hpp"
#include "presets.hpp"

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

// Algorithm 14 through the KV cache, printing each token's text as it is sampled.
template <class Model, class Tokenizer>
void generate(const Model& m, const Tokenizer& tokenizer, const tf::tools::generate_cli& o,
              std::span<const tf::token> stop) {
    auto x = tokenizer.encode(o.prompt);
    if (x.empty())
        throw std::runtime_error("the prompt is empty");
    auto cache = std::make_unique<tf::kv_cache<Model>>();
    tf::rng gen(o.seed);
    const tf::sampling opt{
        .tau = o.tau,
        .top_k = o.top_k,
        .top_p = o.top_p,
        .stop = stop,
        .when_full = o.window ? tf::context_policy::sliding_window : tf::context_policy::error};
    fmt::print("{}", o.prompt);
    const auto t0 = std::chrono::steady_clock::now();
    const auto y = tf::DInference(m, *cache, x, o.tokens, opt, gen, [&](tf::token t) {
        fmt::print("{}", tokenizer.piece(t));
        std::fflush(stdout);
        return true;
    });
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    fmt::print(stderr, "\n{} tokens in {:.3f}s: {:.0f} tokens/s ({}, prompt {} tokens)\n", y.size(),
               s, static_cast<double>(y.size()) / s, tf::tools::describe<Model>(), x.size());
    fmt::print(stderr, "prompt ids:");
    for (const tf::token t : x)
        fmt::print(stderr, " {}", t);
    fmt::print(stderr, "\nids:");
    for (const tf::token t : y)
        fmt::print(stderr, " {}", t);
    fmt::print(stderr, "\n");
}

int main(int argc, char** argv) {
    tf::tools::generate_cli o;
    if (const auto code = tf::tools::parse(argc, argv, o))
        return *code;
    try {
        if (!o.hf_gpt2.empty()) {
            if (o.gpt2_vocab.empty() || o.gpt2_merges.empty())
                throw std::runtime_error("--hf-gpt2 needs --gpt2-vocab and --gpt2-merges");
            using model_t = tf::DTransformer<float, gpt2_small>;
            // checked once against the model's N_V: its encode then gives typed ids
            const auto tokenizer = tf::tokenize::for_model<model_t>(
                tf::tokenize::gpt2::load(o.gpt2_vocab, o.gpt2_merges));
            auto m = std::make_unique<model_t>();
            tf::io::import_hf_gpt2(*m, o.hf_gpt2);
            const tf::token eot = tokenizer.tokenizer().eot();
            generate(
                *m, tokenizer, o,
                o.stop_at_eot ? std::span<const tf::token>(&eot, 1) : std::span<const tf::token>());
            return 0;
        }
        tf::tools::with_checkpoint(o.checkpoint, [&](const auto& m, const auto& tokenizer) {
            generate(m, tokenizer, o, {});
        });
        return 0;
    } catch (const std::exception& e) {
        fmt::print(stderr, "typeformer-generate: {}\n", e.what());
        return 1;
    }
}
