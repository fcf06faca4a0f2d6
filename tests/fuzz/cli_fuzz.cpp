// libFuzzer harness for the tools' command lines (tools/cli.cpp, CLI11 underneath) and the token
// id lists typeformer-tokenize --decode reads. The first byte picks the target, the rest is its
// input:
//   0–5  the command line of typeformer-train, -generate, -tokenize, -attention, -export-header,
//        -inspect: the arguments are the input split at NUL bytes
//   6    tools::parse_ids on the input, against a vocabulary size taken from its first 4 bytes
// Whatever the input: no crash, no UB, no hang; parse answers "go on" or an exit code 0 or 2,
// and every value it accepts is in the range the tool documents (checked here, each against its
// own bound: the harness is the oracle); parse_ids returns ids below the vocabulary or throws
// std::runtime_error, and agrees with a plain reading of the same words.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "../../tools/cli.hpp"

namespace {

namespace tools = typeformer::tools;

void check(bool ok) {
    if (!ok)
        std::abort();
}

bool finite_in(double v, double lo, double hi) {
    return std::isfinite(v) && v >= lo && v <= hi;
}

bool preset(const std::string& m) {
    return m == "tiny" || m == "small" || m == "baby";
}

template <class Cli, class Valid>
void command_line(std::string_view in, const char* tool, Valid&& valid) {
    std::vector<std::string> args = {tool};
    std::size_t start = 0;
    for (std::size_t i = 0; i <= in.size() && args.size() < 64; ++i)
        if (i == in.size() || in[i] == '\0') {
            args.emplace_back(in.substr(start, i - start));
            start = i + 1;
        }
    std::vector<char*> argv;
    for (auto& a : args)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    Cli c;
    const auto rc = tools::parse(static_cast<int>(args.size()), argv.data(), c);
    if (rc) {
        check(*rc == 0 || *rc == tools::exit_usage);
        return;
    }
    valid(c);
}

// The ids a plain reading gives: words of digits below n, or nothing when one is not.
bool plain_ids(const std::string& s, std::uint64_t n, std::vector<std::uint32_t>& out) {
    std::size_t i = 0;
    while (i < s.size()) {
        if (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
            ++i;
            continue;
        }
        std::size_t j = i;
        while (j < s.size() && s[j] >= '0' && s[j] <= '9')
            ++j;
        if (j == i ||
            (j < s.size() && !(s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r')))
            return false;
        std::size_t k = i;
        while (k + 1 < j && s[k] == '0')  // leading zeros do not make a number large
            ++k;
        if (j - k > 10)
            return false;
        const std::uint64_t v = std::stoull(s.substr(k, j - k));
        if (v >= n || v > 0xFFFFFFFFull)
            return false;
        out.push_back(static_cast<std::uint32_t>(v));
        i = j;
    }
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    // --help texts and usage errors would fill the log; they go nowhere
    tools::parse_out = tools::parse_err = std::fopen("/dev/null", "w");
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0)
        return 0;
    const std::string_view in(reinterpret_cast<const char*>(data) + 1, size - 1);
    switch (data[0] % 7) {
        case 0:
            command_line<tools::train_cli>(in, "typeformer-train", [](const tools::train_cli& c) {
                const auto& a = c.args;
                check(preset(a.model) && (a.tokenizer == "byte" || a.tokenizer == "bpe"));
                check(!a.text.empty() && !a.out.empty());
                check(finite_in(a.seconds, 0, 1e9) && finite_in(a.eval_every, 0, 1e9));
                check(finite_in(a.lr, 0, 1e3) && a.lr > 0);
                check(finite_in(a.weight_decay, 0, 1e3) && finite_in(a.clip, 0, HUGE_VAL));
                check(a.batch >= 1 && a.batch <= 65536 && a.sample_tokens <= 1'000'000'000);
                check(a.steps <= 1'000'000'000'000ull && a.warmup <= 1'000'000'000'000ull);
            });
            break;
        case 1:
            command_line<tools::generate_cli>(
                in, "typeformer-generate", [](const tools::generate_cli& c) {
                    check(c.tokens <= 1'000'000'000 || c.tokens == tools::tokens_unlimited ||
                          c.tokens == tools::tokens_fill_context);
                    check(finite_in(c.tau, 0, 1e6) && finite_in(c.top_p, 0, 1) && c.top_p > 0);
                    check(c.top_k == tools::no_top_k || (c.top_k >= 1 && c.top_k <= 1'000'000'000));
                    check(!c.checkpoint.empty() || !c.hf_gpt2.empty() || !c.nanogpt.empty());
                });
            break;
        case 2:
            command_line<tools::tokenize_cli>(
                in, "typeformer-tokenize", [](const tools::tokenize_cli& c) {
                    check(c.merges >= 1 && c.merges <= 1'000'000);
                    check(!c.train || (!c.out.empty() && !c.decode && c.bpe_file.empty() &&
                                       c.gpt2_vocab.empty()));
                    check(c.gpt2_vocab.empty() == c.gpt2_merges.empty());
                });
            break;
        case 3:
            command_line<tools::attention_cli>(
                in, "typeformer-attention",
                [](const tools::attention_cli& c) { check(preset(c.model) && !c.out.empty()); });
            break;
        case 4:
            command_line<tools::export_header_cli>(
                in, "typeformer-export-header", [](const tools::export_header_cli& c) {
                    check(tools::identifier_problem(c.name).empty() && !c.out.empty() &&
                          !c.name.empty());
                });
            break;
        case 5:
            // (its one value is a path: any text is a path)
            command_line<tools::inspect_cli>(in, "typeformer-inspect",
                                             [](const tools::inspect_cli&) {});
            break;
        case 6: {
            if (in.size() < 4)
                break;
            const std::uint64_t n =
                static_cast<std::uint64_t>(static_cast<unsigned char>(in[0])) |
                static_cast<std::uint64_t>(static_cast<unsigned char>(in[1])) << 8 |
                static_cast<std::uint64_t>(static_cast<unsigned char>(in[2])) << 16 |
                static_cast<std::uint64_t>(static_cast<unsigned char>(in[3])) << 24;
            const std::string text(in.substr(4));
            std::vector<std::uint32_t> expected;
            const bool valid = plain_ids(text, n, expected);
            try {
                const auto ids = tools::parse_ids(text, n);
                check(valid && ids == expected);
            } catch (const std::runtime_error&) {
                check(!valid);
            }
            break;
        }
    }
    return 0;
}
