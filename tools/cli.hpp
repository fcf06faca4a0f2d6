// The tools' command lines. CLI11 is header-only and its App costs ~14 s of -O2 compiling in
// every file that uses it, so the five tools parse their options in one translation unit
// (cli.cpp, the static library typeformer_tools_cli) and see only these plain structs.
//
// parse(argc, argv, x) fills x and returns the exit code when the tool is to stop there, nothing
// when it goes on. Every number is converted here, not by CLI11, so that each is checked the same
// way before a tool touches anything: a count is a whole number in its range (a negative one is
// refused, never wrapped), a real is finite and in its range, and the message says the range in
// words ("--lr must be > 0, got 0"). Exit codes (docs/errors.md):
//   0  done (also --help, --version)
//   1  an error while working: a file that cannot be read or written, a checkpoint of the wrong
//      kind, a training run that failed
//   2  a bad command line: unknown option, missing or bad value
//   130, 143  interrupted by SIGINT, SIGTERM (typeformer-train saves a checkpoint first)
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace typeformer::tools {

inline constexpr int exit_error = 1;
inline constexpr int exit_usage = 2;

// "typeformer-train 0.1.0"
std::string version_line(const char* tool);

// Where parse() writes --help and --version (out) and usage errors (err): stdout and stderr when
// null (tests/fuzz's harness sends them elsewhere).
inline std::FILE* parse_out = nullptr;
inline std::FILE* parse_err = nullptr;

// typeformer-train's job (train_driver.hpp's train<Model, Tokenizer>(args)).
struct train_args {
    std::string text = "/usr/share/common-licenses";  // a file or a folder of files
    std::string out = "typeformer-run";               // output folder
    std::string resume;                               // a checkpoint to continue from
    double seconds = 60;                              // wall-clock budget of this run (0: none)
    std::size_t steps = 0;  // the step at which the run ends (0: no limit)
    std::size_t batch = 8;
    double lr = 2e-3;
    double weight_decay = 0.1;
    double clip = 1.0;
    std::size_t warmup = 30;
    double eval_every = 10;      // seconds between held-out evaluations (0: after every step)
    std::size_t save_every = 0;  // also a checkpoint every this many steps (0: only at evaluations)
    std::uint64_t seed = 1;
    std::string prompt = "The ";
    std::size_t sample_tokens = 300;
    float tau = 0.8f;
    std::size_t top_k = 40;
    std::string model = "small", tokenizer = "byte";  // the preset's names (checkpoint metadata)
    bool overwrite = false;       // a new run may replace the checkpoint already in --out
    std::set<std::string> given;  // the options given on the command line ("--lr", …)
};

struct train_cli {
    train_args args;
};

// sampling::all, no top-k filter (typeformer-generate checks that they agree)
inline constexpr std::size_t no_top_k = static_cast<std::size_t>(-1);
// -n -1 (llama.cpp's "infinity"): until a stop token or an interrupt; -n -2: until the context
// (l_max) is full
inline constexpr std::size_t tokens_unlimited = static_cast<std::size_t>(-1);
inline constexpr std::size_t tokens_fill_context = static_cast<std::size_t>(-2);

struct generate_cli {
    std::string checkpoint = "typeformer-run/model.ckpt", hf_gpt2, gpt2_vocab, gpt2_merges;
    std::string nanogpt, config;    // a converted nanoGPT file; HF's config.json (gpt_presets.hpp)
    bool accept_no_config = false;  // import a GPT file that says nothing about H, ε, GELU
    std::string prompt = "The ";
    std::size_t tokens = 200;
    std::size_t top_k = no_top_k;
    float tau = 0.8f, top_p = 1.0f;
    std::uint64_t seed = 1;
    bool random_seed = false;  // --seed -1
    bool window = true;
    bool stop_at_eot = true;
    bool ids = false;  // also print the ids
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

// typeformer-inspect FILE: what model a weights file holds (gpt_presets.hpp)
struct inspect_cli {
    std::string file, config;
};

struct export_header_cli {
    std::string checkpoint, out = "weights.hpp", name = "weights";
    bool q8 = false;  // int8 weights, quantized here
};

std::optional<int> parse(int argc, char** argv, train_cli& c);
std::optional<int> parse(int argc, char** argv, generate_cli& c);
std::optional<int> parse(int argc, char** argv, tokenize_cli& c);
std::optional<int> parse(int argc, char** argv, attention_cli& c);
std::optional<int> parse(int argc, char** argv, export_header_cli& c);
std::optional<int> parse(int argc, char** argv, inspect_cli& c);

// typeformer-tokenize --decode's input: whole numbers separated by blanks (space, tab, CR, LF),
// each below vocab_size. std::runtime_error naming the word and its byte offset otherwise (an
// id of 2^32 or more, or of any number of digits, is out of the vocabulary, never wrapped).
std::vector<std::uint32_t> parse_ids(const std::string& text, std::size_t vocab_size);

// A C++ identifier that is not a keyword nor reserved (export-header's --name): "" if it is one,
// else why not.
std::string identifier_problem(const std::string& name);

}  // namespace typeformer::tools
