// typeformer-train: trains a GPT (DTransformer, Algorithm 13 with AdamW) on a text file and
// samples from it. `typeformer-train --help` lists the options; tools/train_driver.hpp is the job.
#include <exception>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "train_driver.hpp"

int main(int argc, char** argv) {
    namespace tools = typeformer::tools;
    CLI::App app{
        "Trains a GPT (DTransformer) on a text file: byte or BPE tokens, AdamW with warm-up and "
        "cosine decay; writes model.ckpt, loss.csv and loss.svg, then prints a sample."};
    tools::train_args a;
    std::string model = "small", tokenizer = "byte";
    app.add_option("text", a.text, "a text file, or a folder of them")->capture_default_str();
    app.add_option("--model", model, "tiny, small or baby (DESIGN.md's configurations)")
        ->check(CLI::IsMember({"tiny", "small", "baby"}))
        ->capture_default_str();
    app.add_option("--tokenizer", tokenizer, "byte (259 ids) or bpe (512 ids, trained here)")
        ->check(CLI::IsMember({"byte", "bpe"}))
        ->capture_default_str();
    app.add_option("--out", a.out, "output folder")->capture_default_str();
    app.add_option("--resume", a.resume, "continue from this checkpoint");
    app.add_option("--seconds", a.seconds, "wall-clock budget (0: none)")->capture_default_str();
    app.add_option("--steps", a.steps, "step budget (0: none)")->capture_default_str();
    app.add_option("--batch", a.batch, "sequences per step")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    app.add_option("--lr", a.lr, "peak learning rate")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    app.add_option("--weight-decay", a.weight_decay, "AdamW's decoupled decay")
        ->capture_default_str();
    app.add_option("--clip", a.clip, "gradient-norm clipping (0: none)")->capture_default_str();
    app.add_option("--warmup", a.warmup, "warm-up steps")->capture_default_str();
    app.add_option("--eval-every", a.eval_every, "seconds between held-out evaluations")
        ->capture_default_str();
    app.add_option("--seed", a.seed, "initialisation, shuffling and sampling")
        ->capture_default_str();
    app.add_option("--prompt", a.prompt, "the sample's prompt")->capture_default_str();
    app.add_option("--sample-tokens", a.sample_tokens, "tokens to sample")->capture_default_str();
    CLI11_PARSE(app, argc, argv);
    try {
        return tools::run_preset(model, tokenizer, [&]<class Model, class Tokenizer>() {
            return tools::train<Model, Tokenizer>(a);
        });
    } catch (const std::exception& e) {
        fmt::print(stderr, "typeformer-train: {}\n", e.what());
        return 1;
    }
}
