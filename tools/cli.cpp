// The five tools' command lines in one translation unit (cli.hpp says why and what it checks).
#include "cli.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#ifndef TYPEFORMER_VERSION
#define TYPEFORMER_VERSION "0.1.0"
#endif

namespace typeformer::tools {
namespace {

// A bad value on the command line: the message, without the tool's name.
struct usage_error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::string quoted(const std::string& s) {
    return s.empty() ? "nothing" : s;
}

std::string number_text(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

// A whole number in [lo, hi]: digits only, so "-1" is refused, never wrapped to 2^64 − 1.
std::uint64_t whole(const std::string& name, const std::string& text, std::uint64_t lo,
                    std::uint64_t hi = std::numeric_limits<std::uint64_t>::max(),
                    const char* extra = "") {
    const std::string range = hi == std::numeric_limits<std::uint64_t>::max()
                                  ? ">= " + std::to_string(lo)
                                  : "from " + std::to_string(lo) + " to " + std::to_string(hi);
    auto bad = [&] {
        return usage_error(name + " must be a whole number " + range + extra + ", got " +
                           quoted(text));
    };
    std::size_t i = text.size() > 1 && text[0] == '+' ? 1 : 0;
    if (i == text.size())
        throw bad();
    std::uint64_t v = 0;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c < '0' || c > '9')
            throw bad();
        const auto d = static_cast<std::uint64_t>(c - '0');
        if (v > (std::numeric_limits<std::uint64_t>::max() - d) / 10)
            throw bad();  // more than 2^64 − 1
        v = v * 10 + d;
    }
    if (v < lo || v > hi)
        throw bad();
    return v;
}

std::size_t count(const std::string& name, const std::string& text, std::uint64_t lo,
                  std::uint64_t hi = 1'000'000'000'000ull) {
    return static_cast<std::size_t>(whole(name, text, lo, hi));
}

// A finite real in the interval (lo, hi) with each end open or closed.
struct interval {
    double lo = -HUGE_VAL, hi = HUGE_VAL;
    bool lo_open = false, hi_open = false;
};

double real(const std::string& name, const std::string& text, interval r) {
    std::string range;
    if (r.lo != -HUGE_VAL && r.hi != HUGE_VAL)
        range = std::string("in ") + (r.lo_open ? "(" : "[") + number_text(r.lo) + ", " +
                number_text(r.hi) + (r.hi_open ? ")" : "]");
    else if (r.lo != -HUGE_VAL)
        range = std::string(r.lo_open ? "> " : ">= ") + number_text(r.lo);
    else if (r.hi != HUGE_VAL)
        range = std::string(r.hi_open ? "< " : "<= ") + number_text(r.hi);
    const std::string what = range.empty() ? "a finite number" : "a finite number " + range;
    auto bad = [&] { return usage_error(name + " must be " + what + ", got " + quoted(text)); };
    if (text.empty() || std::isspace(static_cast<unsigned char>(text[0])))
        throw bad();
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    // ERANGE: beyond a double, or so small that it underflows (1e-400 would read as 0)
    if (end != text.c_str() + text.size() || !std::isfinite(v) || errno == ERANGE)
        throw bad();
    if ((r.lo_open ? !(v > r.lo) : !(v >= r.lo)) || (r.hi_open ? !(v < r.hi) : !(v <= r.hi)))
        throw bad();
    return v;
}

// --seed: a whole number, or -1 for a random one (llama.cpp's convention).
std::optional<std::uint64_t> seed_value(const std::string& name, const std::string& text) {
    if (text == "-1")
        return std::nullopt;
    return whole(name, text, 0, std::numeric_limits<std::uint64_t>::max() - 0,
                 ", or -1 for a random seed");
}

std::uint64_t random_seed() {
    std::random_device rd;
    return (static_cast<std::uint64_t>(rd()) << 32) | rd();
}

std::string member(const std::string& name, const std::string& text,
                   std::initializer_list<const char*> allowed) {
    std::string list;
    std::size_t i = 0;
    for (const char* a : allowed) {
        if (text == a)
            return text;
        list += (i == 0 ? "" : i + 1 == allowed.size() ? " or " : ", ") + std::string(a);
        ++i;
    }
    throw usage_error(name + " must be " + list + ", got " + quoted(text));
}

// A string option shown in --help with its default and a type name.
CLI::Option* text_option(CLI::App& app, const std::string& flags, std::string& target,
                         const std::string& help, const char* type = "TEXT") {
    return app.add_option(flags, target, help)->type_name(type)->capture_default_str();
}

// CLI11's parse, with the exit codes and message format of cli.hpp: every error names the tool,
// says what is wrong, and points at --help; then `convert` checks and converts the values.
template <class Convert>
std::optional<int> finish(CLI::App& app, int argc, char** argv, Convert&& convert) {
    const std::string tool = app.get_name();
    std::FILE* const err = parse_err ? parse_err : stderr;
    auto usage = [&](const char* what) {
        std::fprintf(err, "%s: %s\nRun %s --help for the options.\n", tool.c_str(), what,
                     tool.c_str());
        return exit_usage;
    };
    // --help and --version: CLI11 writes them to streams; they go to parse_out as one piece
    auto answer = [&](const CLI::ParseError& e) {
        std::ostringstream out, errors;
        const int rc = app.exit(e, out, errors);
        std::fputs(out.str().c_str(), parse_out ? parse_out : stdout);
        std::fputs(errors.str().c_str(), err);
        return rc;
    };
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return answer(e);
    } catch (const CLI::CallForAllHelp& e) {
        return answer(e);
    } catch (const CLI::CallForVersion& e) {
        return answer(e);
    } catch (const CLI::ParseError& e) {
        return usage(e.what());
    }
    try {
        // a path option given as "" (an unset shell variable) is refused, not read as "not given"
        std::vector<const CLI::App*> apps = {&app};
        for (const CLI::App* sub : app.get_subcommands({}))
            apps.push_back(sub);
        for (const CLI::App* a : apps)
            for (const CLI::Option* o : a->get_options()) {
                const std::string type = o->get_type_name();
                if (o->count() > 0 && !o->results().empty() && o->results().back().empty() &&
                    (type == "FILE" || type == "PATH" || type == "CKPT" || type == "DIR"))
                    throw usage_error(o->get_name() + " is empty");
            }
        convert();
    } catch (const usage_error& e) {
        return usage(e.what());
    }
    return std::nullopt;
}

void common(CLI::App& app, const char* tool) {
    app.name(tool);
    app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    app.set_version_flag("--version", version_line(tool));
}

}  // namespace

std::string version_line(const char* tool) {
    return std::string(tool) + " " + TYPEFORMER_VERSION;
}

std::optional<int> parse(int argc, char** argv, train_cli& c) {
    CLI::App app{
        "Trains a GPT (DTransformer) on a text file: byte or BPE tokens, AdamW with warm-up and "
        "cosine decay; checkpoints model.ckpt (with loss.csv and loss.svg) at every held-out "
        "evaluation, every --save-every steps, at the end and on Ctrl-C; then prints a sample."};
    common(app, "typeformer-train");
    train_args& a = c.args;
    std::string seconds = "60", steps = "0", batch = "8", lr = "0.002", wd = "0.1", clip = "1",
                warmup = "30", eval = "10", save = "0", seed = "1", sample = "300";
    app.add_option("text", a.text, "a text file, or a folder of them")
        ->type_name("PATH")
        ->capture_default_str();
    text_option(app, "--model", a.model,
                "tiny, small or baby (DESIGN.md's configurations), or f405 (the largest whose int8 "
                "weights fit an STM32F405; byte tokens); resuming: the checkpoint's");
    text_option(app, "--tokenizer", a.tokenizer,
                "byte (259 ids) or bpe (512 ids, trained on the text); resuming: the "
                "checkpoint's");
    text_option(app, "--out", a.out, "output folder", "DIR");
    app.add_flag("--overwrite", a.overwrite,
                 "start over in an --out that already holds another run's checkpoint (without "
                 "it such a run is refused)");
    app.add_option("--resume", a.resume,
                   "continue from this checkpoint (its model and tokenizer; a new --lr, "
                   "--weight-decay, --clip, --warmup or --batch is applied)")
        ->type_name("CKPT");
    text_option(app, "--seconds", seconds, "wall-clock budget of this run (0: none)", "S");
    text_option(app, "--steps", steps,
                "the step at which training ends, counted from the first run (0: no limit)", "N");
    text_option(app, "--batch", batch, "sequences per step", "N");
    text_option(app, "--lr", lr, "peak learning rate eta", "X");
    text_option(app, "--weight-decay", wd, "AdamW's decoupled decay lambda", "X");
    text_option(app, "--clip", clip, "gradient-norm clipping (0: none)", "X");
    text_option(app, "--warmup", warmup, "warm-up steps", "N");
    text_option(app, "--eval-every", eval,
                "seconds between held-out evaluations, each saving a checkpoint (0: every step)",
                "S");
    text_option(app, "--save-every", save, "also a checkpoint every N steps (0: no extra ones)",
                "N");
    text_option(app, "--seed", seed,
                "initialisation, shuffling and sampling (-1: a random seed, printed)", "N");
    text_option(app, "--prompt", a.prompt, "the sample's prompt");
    text_option(app, "--sample-tokens", sample, "tokens to sample at the end", "N");
    return finish(app, argc, argv, [&] {
        for (const auto* o : app.get_options())
            if (o->count() > 0)
                a.given.insert(o->get_name());
        a.model = member("--model", a.model, {"tiny", "small", "baby", "f405"});
        a.tokenizer = member("--tokenizer", a.tokenizer, {"byte", "bpe"});
        a.seconds = real("--seconds", seconds, {.lo = 0, .hi = 1e9});
        a.steps = count("--steps", steps, 0);
        a.batch = count("--batch", batch, 1, 65536);
        a.lr = real("--lr", lr, {.lo = 0, .hi = 1e3, .lo_open = true});
        a.weight_decay = real("--weight-decay", wd, {.lo = 0, .hi = 1e3});
        a.clip = real("--clip", clip, {.lo = 0});
        a.warmup = count("--warmup", warmup, 0);
        a.eval_every = real("--eval-every", eval, {.lo = 0, .hi = 1e9});
        a.save_every = count("--save-every", save, 0);
        const auto s = seed_value("--seed", seed);
        a.seed = s ? *s : random_seed();
        a.sample_tokens = count("--sample-tokens", sample, 0, 1'000'000'000);
        if (a.text.empty())
            throw usage_error("the text path is empty");
        if (a.out.empty())
            throw usage_error("--out is empty");
    });
}

std::optional<int> parse(int argc, char** argv, generate_cli& c) {
    CLI::App app{
        "Continues a prompt with a GPT (Algorithm 14, KV cache): a checkpoint of "
        "typeformer-train, or Hugging Face's GPT-2 small with its tokenizer files. The text goes "
        "to stdout, one line of statistics to stderr."};
    common(app, "typeformer-generate");
    std::string tokens = "200", top_k, tau = "0.8", top_p = "1", seed = "1";
    app.add_option("checkpoint", c.checkpoint, "a checkpoint of typeformer-train")
        ->type_name("CKPT")
        ->capture_default_str();
    auto* hf = app.add_option("--hf-gpt2", c.hf_gpt2,
                              "a GPT-2's model.safetensors (Hugging Face layout, config.json "
                              "beside it) instead, onto the preset its configuration matches")
                   ->type_name("FILE");
    auto* nano = app.add_option("--nanogpt", c.nanogpt,
                                "a nanoGPT checkpoint converted by `typeformer_torch.py "
                                "from-nanogpt` instead")
                     ->type_name("FILE")
                     ->excludes(hf);
    app.add_option("--config", c.config, "with --hf-gpt2: its config.json, if not beside it")
        ->type_name("FILE")
        ->needs(hf);
    app.add_flag("--accept-no-config", c.accept_no_config,
                 "import a GPT file without configuration (H, eps, GELU unchecked)");
    app.add_option("--gpt2-vocab", c.gpt2_vocab, "with a GPT-2 vocabulary: GPT-2's encoder.json")
        ->type_name("FILE");
    app.add_option("--gpt2-merges", c.gpt2_merges, "with a GPT-2 vocabulary: GPT-2's vocab.bpe")
        ->type_name("FILE");
    (void)nano;
    text_option(app, "-p,--prompt", c.prompt, "the text to continue");
    text_option(app, "-n,--tokens", tokens,
                "tokens to generate (-1: until end of text or Ctrl-C, -2: until the context is "
                "full)",
                "N");
    text_option(app, "--tau,--temp", tau, "temperature (0: argmax)", "X");
    app.add_option("--top-k", top_k, "keep the k most likely tokens (default: all)")
        ->type_name("N");
    text_option(app, "--top-p", top_p, "nucleus sampling mass", "X");
    text_option(app, "-s,--seed", seed, "the sampler's seed (-1: a random seed, printed)", "N");
    app.add_flag("!--no-window", c.window, "stop at l_max instead of sliding the context window");
    app.add_flag("!--no-stop", c.stop_at_eot, "with --hf-gpt2: go on past <|endoftext|>");
    app.add_flag("--ids", c.ids, "also print the prompt's and the generated token ids (stderr)");
    return finish(app, argc, argv, [&] {
        if (tokens == "-1")
            c.tokens = tokens_unlimited;
        else if (tokens == "-2")
            c.tokens = tokens_fill_context;
        else
            c.tokens = count("--tokens", tokens, 0, 1'000'000'000);
        c.tau = static_cast<float>(real("--tau", tau, {.lo = 0, .hi = 1e6}));
        c.top_p = static_cast<float>(real("--top-p", top_p, {.lo = 0, .hi = 1, .lo_open = true}));
        if (!top_k.empty())
            c.top_k = count("--top-k", top_k, 1, 1'000'000'000);
        const auto s = seed_value("--seed", seed);
        c.random_seed = !s;
        c.seed = s ? *s : random_seed();
        if (c.hf_gpt2.empty() && c.nanogpt.empty() && c.checkpoint.empty())
            throw usage_error("the checkpoint path is empty");
        if (!c.gpt2_vocab.empty() != !c.gpt2_merges.empty())
            throw usage_error("--gpt2-vocab and --gpt2-merges go together");
    });
}

std::optional<int> parse(int argc, char** argv, tokenize_cli& c) {
    CLI::App app{"Encodes stdin to token ids (one line, space separated) or decodes ids back."};
    common(app, "typeformer-tokenize");
    std::string merges = "253";
    app.add_option("--bpe", c.bpe_file, "a BPE file (typeformer-tokenize train); default: bytes")
        ->type_name("FILE");
    auto* v =
        app.add_option("--gpt2-vocab", c.gpt2_vocab, "GPT-2's encoder.json")->type_name("FILE");
    auto* m =
        app.add_option("--gpt2-merges", c.gpt2_merges, "GPT-2's vocab.bpe")->type_name("FILE");
    v->needs(m);
    m->needs(v);
    app.get_option("--bpe")->excludes(v);
    app.add_flag("-d,--decode", c.decode, "read ids from stdin, write the text");
    auto* train = app.add_subcommand("train", "learn BPE merges from a corpus");
    train->add_option("--corpus", c.corpus, "a text file or folder")
        ->type_name("PATH")
        ->capture_default_str();
    train->add_option("--merges", merges, "how many merges")->type_name("N")->capture_default_str();
    train->add_option("--out", c.out, "the BPE file to write")
        ->type_name("FILE")
        ->capture_default_str();
    return finish(app, argc, argv, [&] {
        c.train = train->parsed();
        c.merges = count("--merges", merges, 1, 1'000'000);
        if (c.train && (c.decode || !c.bpe_file.empty() || !c.gpt2_vocab.empty()))
            throw usage_error(
                "train takes --corpus, --merges and --out, not --decode or a "
                "tokenizer");
        if (c.train && c.out.empty())
            throw usage_error("--out is empty");
    });
}

std::optional<int> parse(int argc, char** argv, attention_cli& c) {
    CLI::App app{
        "Draws every attention head of a GPT checkpoint on a prompt (the softmax of Algorithm 4) "
        "as an SVG grid of heatmaps labelled with the prompt's tokens."};
    common(app, "typeformer-attention");
    std::string seed;
    auto* ckpt = app.add_option("checkpoint", c.checkpoint, "a checkpoint of typeformer-train")
                     ->type_name("CKPT");
    auto* random =
        app.add_option("--seed", seed, "no checkpoint: random weights from this seed (-1: random)")
            ->type_name("N")
            ->excludes(ckpt);
    text_option(app, "--model", c.model, "with --seed: tiny, small or baby (byte tokens)")
        ->needs(random);
    app.add_option("-p,--prompt", c.prompt, "the text to run")->required();
    text_option(app, "-o,--out", c.out, "the SVG to write", "FILE");
    return finish(app, argc, argv, [&] {
        c.model = member("--model", c.model, {"tiny", "small", "baby"});
        if (random->count() > 0) {
            const auto s = seed_value("--seed", seed);
            c.seed = s ? *s : random_seed();
        }
        if (c.out.empty())
            throw usage_error("--out is empty");
    });
}

std::vector<std::uint32_t> parse_ids(const std::string& text, std::size_t vocab_size) {
    std::vector<std::uint32_t> ids;
    auto blank = [&](std::size_t k) {
        return text[k] == ' ' || text[k] == '\t' || text[k] == '\n' || text[k] == '\r';
    };
    std::size_t i = 0;
    while (i < text.size()) {
        if (blank(i)) {
            ++i;
            continue;
        }
        const std::size_t start = i;
        while (i < text.size() && !blank(i))
            ++i;
        const std::string word = text.substr(start, i - start);
        const std::string shown = word.size() > 40 ? word.substr(0, 40) + "…" : word;
        std::uint64_t v = 0;
        for (const char c : word) {
            if (c < '0' || c > '9')
                throw std::runtime_error("the input is not a list of token ids: '" + shown +
                                         "' (at byte " + std::to_string(start) +
                                         ") is not a whole number");
            // past any vocabulary already: stop growing (no wrap however many digits follow)
            if (v <= 0xFFFFFFFFull)
                v = v * 10 + static_cast<std::uint64_t>(c - '0');
        }
        if (v >= vocab_size || v > 0xFFFFFFFFull)
            throw std::runtime_error(
                "token id " + shown + " (at byte " + std::to_string(start) +
                ") is not in the vocabulary (N_V = " + std::to_string(vocab_size) + ")");
        ids.push_back(static_cast<std::uint32_t>(v));
    }
    return ids;
}

std::string identifier_problem(const std::string& name) {
    static const char* const keywords[] = {"alignas",       "alignof",     "and",
                                           "and_eq",        "asm",         "auto",
                                           "bitand",        "bitor",       "bool",
                                           "break",         "case",        "catch",
                                           "char",          "char8_t",     "char16_t",
                                           "char32_t",      "class",       "compl",
                                           "concept",       "const",       "consteval",
                                           "constexpr",     "constinit",   "const_cast",
                                           "continue",      "co_await",    "co_return",
                                           "co_yield",      "decltype",    "default",
                                           "delete",        "do",          "double",
                                           "dynamic_cast",  "else",        "enum",
                                           "explicit",      "export",      "extern",
                                           "false",         "float",       "for",
                                           "friend",        "goto",        "if",
                                           "inline",        "int",         "long",
                                           "mutable",       "namespace",   "new",
                                           "noexcept",      "not",         "not_eq",
                                           "nullptr",       "operator",    "or",
                                           "or_eq",         "private",     "protected",
                                           "public",        "register",    "reinterpret_cast",
                                           "requires",      "return",      "short",
                                           "signed",        "sizeof",      "static",
                                           "static_assert", "static_cast", "struct",
                                           "switch",        "template",    "this",
                                           "thread_local",  "throw",       "true",
                                           "try",           "typedef",     "typeid",
                                           "typename",      "union",       "unsigned",
                                           "using",         "virtual",     "void",
                                           "volatile",      "wchar_t",     "while",
                                           "xor",           "xor_eq"};
    if (name.empty())
        return "is empty";
    const auto ok_first = [](char ch) {
        return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
    };
    if (!ok_first(name[0]))
        return "does not start with a letter or '_'";
    for (const char ch : name)
        if (!ok_first(ch) && !(ch >= '0' && ch <= '9'))
            return "holds a character that is not a letter, digit or '_'";
    for (const char* k : keywords)
        if (name == k)
            return "is a C++ keyword";
    if (name.find("__") != std::string::npos ||
        (name[0] == '_' && name.size() > 1 && name[1] >= 'A' && name[1] <= 'Z'))
        return "is reserved for the implementation (a double '_', or '_' and a capital)";
    return {};
}

std::optional<int> parse(int argc, char** argv, export_header_cli& c) {
    CLI::App app{
        "Writes a checkpoint of typeformer-train as a C++ header holding a constexpr parameter "
        "object (weights in flash for a microcontroller build)."};
    common(app, "typeformer-export-header");
    app.add_option("checkpoint", c.checkpoint, "a checkpoint of typeformer-train")
        ->type_name("CKPT")
        ->required();
    text_option(app, "-o,--out", c.out, "the header to write", "FILE");
    text_option(app, "--name", c.name,
                "the C++ name of the parameter object (an identifier, not a keyword)", "NAME");
    app.add_flag("--q8", c.q8,
                 "int8 weights (q8<Model>: int8 per output row, a float scale per row), quantized "
                 "here: under a third of the float weights' flash");
    return finish(app, argc, argv, [&] {
        if (const std::string why = identifier_problem(c.name); !why.empty())
            throw usage_error("--name must be a C++ identifier that is not a keyword; '" + c.name +
                              "' " + why);
        if (c.out.empty())
            throw usage_error("--out is empty");
    });
}

std::optional<int> parse(int argc, char** argv, inspect_cli& c) {
    CLI::App app{
        "Says what model a weights file holds: a typeformer file or checkpoint, a nanoGPT "
        "checkpoint converted by typeformer_torch.py, a Hugging Face GPT-2 model.safetensors "
        "(with its config.json): the architecture, the parameter count, the C++ config struct "
        "to paste and the tools' presets that match."};
    common(app, "typeformer-inspect");
    app.add_option("file", c.file, "the safetensors file")->type_name("FILE")->required();
    app.add_option("--config", c.config, "a Hugging Face config.json, if not beside the file")
        ->type_name("FILE");
    return finish(app, argc, argv, [] {});
}

}  // namespace typeformer::tools
