// libFuzzer harness for the tokenizers. The first byte picks the target, the rest is its input:
//   0  byte_level: encode ∘ decode is the identity on bytes; decode of arbitrary ids
//   1  bpe::deserialize (a merges file), then encode/decode round trip on the same bytes
//   2  gpt2::from_strings (encoder.json, vocab.bpe split at the first NUL)
//   3  a fixed trained bpe and the fixed GPT-2 files: encode ∘ decode round trip of the bytes
//   4  a vocab.bpe of GPT-2's form (the input's lines) with the encoder.json that fits it: GPT-2's
//      256 byte tokens and, for each line "a b", the token a + b (so the merges' checks and the
//      merging run, not only the JSON parser), then a round trip of the same bytes
//   5  characters::from_json (a vocabulary, split at the first NUL from a text): encode ∘ decode
//      is the identity on a text it encodes
// Malformed files must throw std::invalid_argument, nothing else; no crash, no hang.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <typeformer/tokenize.hpp>
#include "support/small_gpt2.hpp"

namespace {

namespace tk = typeformer::tokenize;
using typeformer::token;

std::vector<token> ids_of(std::string_view s) {  // two bytes per id, any value
    std::vector<token> ids;
    for (std::size_t i = 0; i + 1 < s.size(); i += 2)
        ids.push_back(static_cast<token>(static_cast<unsigned char>(s[i]) |
                                         (static_cast<unsigned char>(s[i + 1]) << 8)));
    return ids;
}

template <class Tok>
void round_trip(const Tok& t, std::string_view text) {
    const auto ids = t.encode(text);
    if (t.decode(ids) != text)
        std::abort();
    try {
        (void)t.decode(ids_of(text));
    } catch (const std::invalid_argument&) {
    }
}

const tk::bpe& trained() {
    static const tk::bpe b = tk::bpe::train(
        "the quick brown fox jumps over the lazy dog; "
        "the lazy dog sleeps. 1234 5678 éàü 日本語",
        40);
    return b;
}

const tk::gpt2& small_gpt2() {
    static const tk::gpt2 g = typeformer::testing::small_gpt2(
        "\"th\":256,\"the\":257,\"<|endoftext|>\":258", "t h\nth e\n");
    return g;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0)
        return 0;
    const std::string_view in(reinterpret_cast<const char*>(data) + 1, size - 1);
    switch (data[0] % 6) {
        case 0: {
            const auto ids = tk::byte_level::encode(in);
            if (tk::byte_level::decode(ids) != in)
                std::abort();
            try {
                (void)tk::byte_level::decode(ids_of(in));
            } catch (const std::invalid_argument&) {
            }
            break;
        }
        case 1:
            try {
                const tk::bpe b = tk::bpe::deserialize(in, "fuzz.merges");
                round_trip(b, in);
            } catch (const std::invalid_argument&) {
            }
            break;
        case 2: {
            const auto nul = in.find('\0');
            const std::string_view json = in.substr(0, nul);
            const std::string_view merges =
                nul == std::string_view::npos ? std::string_view{} : in.substr(nul + 1);
            try {
                const tk::gpt2 g = tk::gpt2::from_strings(json, merges);
                round_trip(g, in);
            } catch (const std::invalid_argument&) {
            }
            break;
        }
        case 3:
            round_trip(trained(), in);
            round_trip(small_gpt2(), in);
            break;
        case 4: {
            std::string tokens;
            std::set<std::string> made;
            std::uint32_t id = 256;
            for (std::size_t start = 0; start < in.size();) {
                const auto nl = in.find('\n', start);
                const std::string_view line = in.substr(
                    start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
                start = nl == std::string_view::npos ? in.size() : nl + 1;
                const auto sp = line.find(' ');
                if (sp == std::string_view::npos)
                    continue;
                std::string t(line.substr(0, sp));
                t += line.substr(sp + 1);
                if (!t.empty() && t.back() == '\r')
                    t.pop_back();
                if (!made.insert(t).second)
                    continue;
                std::string escaped;
                for (const char c : t)
                    escaped += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
                tokens += ",\"" + escaped + "\":" + std::to_string(id++);
            }
            try {
                const tk::gpt2 g = typeformer::testing::small_gpt2(
                    tokens.empty() ? std::string_view{} : std::string_view(tokens).substr(1), in);
                round_trip(g, in);
            } catch (const std::invalid_argument&) {
            }
            break;
        }
        case 5: {
            const auto nul = in.find('\0');
            try {
                const tk::characters c = tk::characters::from_json(in.substr(0, nul), "fuzz");
                if (nul != std::string_view::npos)
                    round_trip(c, in.substr(nul + 1));
            } catch (const std::invalid_argument&) {
            }
            break;
        }
    }
    return 0;
}
