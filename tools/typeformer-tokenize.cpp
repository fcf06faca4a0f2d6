// typeformer-tokenize: text to token ids and back, with the byte-level tokenizer or a BPE file;
// `train` learns BPE merges from a corpus.
#include <exception>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <typeformer/tokenize.hpp>

#include "cli.hpp"
#include "text.hpp"

namespace tk = typeformer::tokenize;

int main(int argc, char** argv) {
    typeformer::tools::tokenize_cli c;
    if (const auto code = typeformer::tools::parse(argc, argv, c))
        return *code;
    try {
        if (c.train) {
            const std::string text = typeformer::tools::read_text(c.corpus);
            const auto b = tk::bpe::train(text, c.merges, [](std::size_t done, std::size_t total) {
                if (done % 50 == 0 || done == total)
                    fmt::print(stderr, "\r{} / {} merges", done, total);
            });
            b.save(c.out);
            fmt::print(stderr, "\nwrote {} ({} merges, vocabulary {})\n", c.out, b.merge_count(),
                       b.vocab_size());
            return 0;
        }
        const std::string in((std::istreambuf_iterator<char>(std::cin)), {});
        const auto bpe = c.bpe_file.empty() ? std::optional<tk::bpe>{} : tk::bpe::load(c.bpe_file);
        const auto gpt2 = c.gpt2_vocab.empty() ? std::optional<tk::gpt2>{}
                                               : tk::gpt2::load(c.gpt2_vocab, c.gpt2_merges);
        if (c.decode) {
            std::vector<typeformer::token> ids;
            std::istringstream s(in);
            long long v = 0;
            while (s >> v) {
                if (v < 0)
                    throw std::invalid_argument("a token id is negative");
                ids.push_back(static_cast<typeformer::token>(v));
            }
            if (!s.eof())
                throw std::invalid_argument("the input is not a list of token ids");
            const std::string text = gpt2  ? gpt2->decode(ids)
                                     : bpe ? bpe->decode(ids)
                                           : tk::byte_level::decode(ids);
            std::cout.write(text.data(), static_cast<std::streamsize>(text.size()));
            return 0;
        }
        const auto ids = gpt2  ? gpt2->encode(in)
                         : bpe ? bpe->encode(in)
                               : tk::byte_level::encode(in);
        fmt::print("{}\n", fmt::join(ids, " "));
        return 0;
    } catch (const std::exception& e) {
        fmt::print(stderr, "typeformer-tokenize: {}\n", e.what());
        return 1;
    }
}
