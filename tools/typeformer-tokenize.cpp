// typeformer-tokenize: text to token ids and back, with the byte-level tokenizer, a BPE file or
// GPT-2's files; `train` learns BPE merges from a corpus.
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include <typeformer/tokenize.hpp>

#include "cli.hpp"
#include "run.hpp"
#include "text.hpp"

namespace tk = typeformer::tokenize;
namespace tools = typeformer::tools;

static_assert(std::is_same_v<typeformer::token, std::uint32_t>);  // tools::parse_ids' ids

int main(int argc, char** argv) {
    tools::tokenize_cli c;
    if (const auto code = tools::parse(argc, argv, c))
        return *code;
    return tools::run_tool("typeformer-tokenize", [&] {
        if (c.train) {
            tools::check_output_file(c.out, "--out", {c.corpus});
            const std::string text = tools::read_text(c.corpus);
            if (text.empty())
                throw std::runtime_error("the corpus " + c.corpus + " is empty");
            const bool tty = ::isatty(::fileno(stderr));
            const auto b = tk::bpe::train(text, c.merges, [&](std::size_t done, std::size_t total) {
                if (tty && (done % 50 == 0 || done == total))
                    fmt::print(stderr, "\r{} / {} merges", done, total);
            });
            if (tty)
                fmt::print(stderr, "\n");
            b.save(c.out);
            fmt::print(stderr, "wrote {}: {} merges, vocabulary {}\n", c.out, b.merge_count(),
                       b.vocab_size());
            if (b.merge_count() < c.merges)
                fmt::print(stderr,
                           "note: the corpus gives only {} of the {} merges asked for (no "
                           "adjacent pair is left to merge)\n",
                           b.merge_count(), c.merges);
            return 0;
        }
        const auto bpe = c.bpe_file.empty() ? std::optional<tk::bpe>{} : tk::bpe::load(c.bpe_file);
        const auto gpt2 = c.gpt2_vocab.empty() ? std::optional<tk::gpt2>{}
                                               : tk::gpt2::load(c.gpt2_vocab, c.gpt2_merges);
        const std::string in((std::istreambuf_iterator<char>(std::cin)), {});
        if (c.decode) {
            const std::size_t n_v = gpt2  ? gpt2->vocab_size()
                                    : bpe ? bpe->vocab_size()
                                          : tk::byte_level::vocab_size();
            const auto ids = tools::parse_ids(in, n_v);
            const std::string text = gpt2  ? gpt2->decode(ids)
                                     : bpe ? bpe->decode(ids)
                                           : tk::byte_level::decode(ids);
            std::fwrite(text.data(), 1, text.size(), stdout);
            return 0;
        }
        const auto ids = gpt2  ? gpt2->encode(in)
                         : bpe ? bpe->encode(in)
                               : tk::byte_level::encode(in);
        fmt::print("{}\n", fmt::join(ids, " "));
        return 0;
    });
}
