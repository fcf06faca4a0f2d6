// The tools' command lines. CLI11 is header-only and its App costs ~14 s of -O2 compiling in
// every file that uses it, so the five tools parse their options in one translation unit
// (cli.cpp, the static library typeformer_tools_cli) and see only these plain structs. Each
// parse(argc, argv, x) fills x and returns the exit code when the tool is to stop there
// (--help: 0; a bad command line: CLI11's message and non-zero), nothing when it goes on.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace typeformer::tools {

// typeformer-train's job (train_driver.hpp's train<Model, Tokenizer>(args)).
struct train_args {
    std::string text = "/usr/share/common-licenses";  // a file or a folder of files
    std::string out = "typeformer-run";               // output folder
    std::string resume;                               // a checkpoint to continue from
    double seconds = 60;                              // wall-clock budget (0: no limit)
    std::size_t steps = 0;                            // step budget (0: no limit)
    std::size_t batch = 8;
    double lr = 2e-3;
    double weight_decay = 0.1;
    double clip = 1.0;
    std::size_t warmup = 30;
    double eval_every = 10;  // seconds between held-out evaluations
    std::uint64_t seed = 1;
    std::string prompt = "The ";
    std::size_t sample_tokens = 300;
    float tau = 0.8f;
    std::size_t top_k = 40;
};

struct train_cli {
    train_args args;
    std::string model = "small", tokenizer = "byte";
};

// sampling::all, no top-k filter (typeformer-generate checks that they agree)
inline constexpr std::size_t no_top_k = static_cast<std::size_t>(-1);

struct generate_cli {
    std::string checkpoint = "typeformer-run/model.ckpt", hf_gpt2, gpt2_vocab, gpt2_merges;
    std::string prompt = "The ";
    std::size_t tokens = 200;
    std::size_t top_k = no_top_k;
    float tau = 0.8f, top_p = 1.0f;
    std::uint64_t seed = 1;
    bool window = true;
    bool stop_at_eot = true;
};

struct tokenize_cli {
    std::string bpe_file, gpt2_vocab, gpt2_merges;
    bool decode = false;
    bool train = false;  // the `train` subcommand: learn BPE merges
    std::string corpus = "/usr/share/common-licenses", out = "merges.bpe";
    std::size_t merges = 253;
};

struct attention_cli {
    std::string checkpoint, prompt, out = "attention.svg", model = "tiny";
    std::optional<std::uint64_t> seed;  // no checkpoint: random weights from this seed
};

struct export_header_cli {
    std::string checkpoint, out = "weights.hpp", name = "weights";
};

std::optional<int> parse(int argc, char** argv, train_cli& c);
std::optional<int> parse(int argc, char** argv, generate_cli& c);
std::optional<int> parse(int argc, char** argv, tokenize_cli& c);
std::optional<int> parse(int argc, char** argv, attention_cli& c);
std::optional<int> parse(int argc, char** argv, export_header_cli& c);

}  // namespace typeformer::tools
