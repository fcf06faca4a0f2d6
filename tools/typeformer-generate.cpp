// typeformer-generate: loads a checkpoint written by typeformer-train and continues a prompt with
// Algorithm 14 through the KV cache, streaming the text as it is sampled.
#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <typeformer/io.hpp>

#include "presets.hpp"

namespace tf = typeformer;

int main(int argc, char** argv) {
    CLI::App app{"Continues a prompt with a trained GPT checkpoint (Algorithm 14, KV cache)."};
    std::string checkpoint = "typeformer-run/model.ckpt", prompt = "The ";
    std::size_t tokens = 200, top_k = tf::sampling::all;
    float tau = 0.8f, top_p = 1.0f;
    std::uint64_t seed = 1;
    bool window = true;
    app.add_option("checkpoint", checkpoint, "a checkpoint of typeformer-train")
        ->capture_default_str();
    app.add_option("-p,--prompt", prompt, "the text to continue")->capture_default_str();
    app.add_option("-n,--tokens", tokens, "tokens to generate")->capture_default_str();
    app.add_option("--tau", tau, "temperature (0: argmax)")->capture_default_str();
    app.add_option("--top-k", top_k, "keep the k most likely tokens");
    app.add_option("--top-p", top_p, "nucleus sampling mass")->capture_default_str();
    app.add_option("--seed", seed, "the sampler's seed")->capture_default_str();
    app.add_flag("!--no-window", window, "stop at l_max instead of sliding the context window");
    CLI11_PARSE(app, argc, argv);
    try {
        const std::string type = tf::io::checkpoint_model(checkpoint);
        if (type.empty())
            throw std::runtime_error(checkpoint + " is not a typeformer checkpoint");
        int rc = -1;
        for (const char* model : {"tiny", "small", "baby"})
            for (const char* tok : {"byte", "bpe"})
                tf::tools::run_preset(model, tok, [&]<class Model, class Tokenizer>() {
                    if (rc != -1 || tf::io::detail::model_signature<Model>() != type)
                        return 0;
                    auto m = std::make_unique<Model>();
                    std::string tok_state;
                    if (auto r = tf::io::try_load_checkpoint_model(checkpoint, *m, &tok_state); !r)
                        throw std::runtime_error(r.message);
                    // the checkpoint's tokenizer, checked once against the model's N_V: its
                    // encode then gives ids typed with that vocabulary
                    const auto tokenizer = tf::tokenize::for_model<Model>(
                        tf::tools::tokenizer_from<Tokenizer>(tok_state));
                    auto x = tokenizer.encode(prompt);
                    if (x.empty())
                        throw std::runtime_error("the prompt is empty");
                    auto cache = std::make_unique<tf::kv_cache<Model>>();
                    tf::rng gen(seed);
                    const tf::sampling opt{.tau = tau,
                                           .top_k = top_k,
                                           .top_p = top_p,
                                           .when_full = window ? tf::context_policy::sliding_window
                                                               : tf::context_policy::error};
                    fmt::print("{}", prompt);
                    const auto t0 = std::chrono::steady_clock::now();
                    const auto y =
                        tf::DInference(*m, *cache, x, tokens, opt, gen, [&](tf::token t) {
                            fmt::print("{}", tokenizer.piece(t));
                            std::fflush(stdout);
                            return true;
                        });
                    const double s =
                        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
                            .count();
                    fmt::print(stderr, "\n{} tokens in {:.3f}s: {:.0f} tokens/s ({}, prompt {})\n",
                               y.size(), s, static_cast<double>(y.size()) / s, type, x.size());
                    rc = 0;
                    return 0;
                });
        if (rc == -1)
            throw std::runtime_error("no preset of this tool matches the checkpoint's model: " +
                                     type);
        return rc;
    } catch (const std::exception& e) {
        fmt::print(stderr, "typeformer-generate: {}\n", e.what());
        return 1;
    }
}
