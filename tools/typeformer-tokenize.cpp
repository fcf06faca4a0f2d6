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
#include <CLI/CLI.hpp>

#include <typeformer/tokenize.hpp>

#include "text.hpp"

namespace tk = typeformer::tokenize;

int main(int argc, char** argv) {
    CLI::App app{"Encodes stdin to token ids (one line, space separated) or decodes ids back."};
    std::string bpe_file, gpt2_vocab, gpt2_merges;
    bool decode = false;
    app.add_option("--bpe", bpe_file, "a BPE file (typeformer-tokenize train); default: bytes");
    auto* v = app.add_option("--gpt2-vocab", gpt2_vocab, "GPT-2's encoder.json");
    auto* m = app.add_option("--gpt2-merges", gpt2_merges, "GPT-2's vocab.bpe");
    v->needs(m);
    m->needs(v);
    app.add_flag("-d,--decode", decode, "read ids from stdin, write the text");
    auto* train = app.add_subcommand("train", "learn BPE merges from a corpus");
    std::string corpus = "/usr/share/common-licenses", out = "merges.bpe";
    std::size_t merges = 253;
    train->add_option("--corpus", corpus, "a text file or folder")->capture_default_str();
    train->add_option("--merges", merges, "how many merges")->capture_default_str();
    train->add_option("--out", out, "the BPE file to write")->capture_default_str();
    CLI11_PARSE(app, argc, argv);
    try {
        if (train->parsed()) {
            const std::string text = typeformer::tools::read_text(corpus);
            const auto b = tk::bpe::train(text, merges, [](std::size_t done, std::size_t total) {
                if (done % 50 == 0 || done == total)
                    fmt::print(stderr, "\r{} / {} merges", done, total);
            });
            b.save(out);
            fmt::print(stderr, "\nwrote {} ({} merges, vocabulary {})\n", out, b.merge_count(),
                       b.vocab_size());
            return 0;
        }
        const std::string in((std::istreambuf_iterator<char>(std::cin)), {});
        const auto bpe = bpe_file.empty() ? std::optional<tk::bpe>{} : tk::bpe::load(bpe_file);
        const auto gpt2 = gpt2_vocab.empty() ? std::optional<tk::gpt2>{}
                                             : tk::gpt2::load(gpt2_vocab, gpt2_merges);
        if (decode) {
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
