// GPT-2's tokenizer: the ids of real texts equal the reference encoder's (npm's gpt-3-encoder, run
// by node), decode inverts encode on any bytes, and malformed files are rejected.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <typeformer/tokenize.hpp>
#include "support/paths.hpp"

namespace tf = typeformer;
namespace tk = typeformer::tokenize;

namespace {

const std::string dir = TYPEFORMER_GPT3_ENCODER;

const tk::gpt2& tokenizer() {
    static const tk::gpt2 g = tk::gpt2::load(dir + "/encoder.json", dir + "/vocab.bpe");
    return g;
}

// The reference's ids for text.
std::vector<tf::token> reference(const std::string& text, const std::string& name) {
    const auto in = std::filesystem::path(TYPEFORMER_TEST_BINARY_DIR) / (name + ".txt");
    const auto out = std::filesystem::path(TYPEFORMER_TEST_BINARY_DIR) / (name + ".ids");
    std::ofstream(in, std::ios::binary) << text;
    const std::string cmd = typeformer::testing::path_string(TYPEFORMER_NODE) + " " +
                            typeformer::testing::path_string(TYPEFORMER_TEST_SOURCE_DIR) +
                            "/gpt2_reference.js " + dir + " " + in.string() + " > " + out.string();
    if (std::system(cmd.c_str()) != 0)
        throw std::runtime_error("the reference encoder failed: " + cmd);
    std::ifstream f(out);
    std::vector<tf::token> ids;
    for (unsigned long v; f >> v;)
        ids.push_back(static_cast<tf::token>(v));
    return ids;
}

std::string file_text(const char* path, std::size_t n) {
    std::ifstream f(path, std::ios::binary);
    EXPECT_TRUE(f) << path;
    std::string s((std::istreambuf_iterator<char>(f)), {});
    return s.substr(0, n);
}

TEST(GPT2, IdsEqualTheReferenceEncoder) {
    const std::vector<std::pair<std::string, std::string>> texts = {
        {"gpl", file_text("/usr/share/common-licenses/GPL-3", 20000)},
        {"apache", file_text("/usr/share/common-licenses/Apache-2.0", 8000)},
        {"unicode",
         "Grüße aus Köln — naïve café, 東京は2024年に, emoji 😀🎉👍🏽, "
         "Ελληνικά, "
         "русский текст, עברית, العربية ١٢٣, हिन्दी, 한국어 ½ ² Ⅻ"},
        {"spaces", "a  b\n\n\nc \t d   e\u00a0f\u3000g  \n  h\r\n\ttail   "},
        {"contractions", "I'm you'll they've it's we'd can't 'S 're 'x ''s O'Neil"},
        {"digits", "3.14159 1,000,000 0x7FF 2024-11-24 +1 (555) 010-9999 i18n l10n"},
        {"code", "int main() { return a->b[i] += (x << 2) | ~y; } // done\n<|endoftext|>"},
    };
    const auto& g = tokenizer();
    EXPECT_EQ(g.vocab_size(), 50257u);
    EXPECT_EQ(g.eot(), 50256u);
    for (const auto& [name, text] : texts) {
        const auto mine = g.encode(text);
        EXPECT_EQ(mine, reference(text, name)) << name;
        EXPECT_EQ(g.decode(mine), text) << name;
    }
}

TEST(GPT2, RoundTripsArbitraryBytes) {
    const auto& g = tokenizer();
    std::mt19937_64 gen(3);
    for (std::size_t n : {1, 2, 17, 500}) {
        std::string s(n, '\0');
        for (auto& c : s)
            c = static_cast<char>(gen() & 0xFF);  // mostly invalid UTF-8
        EXPECT_EQ(g.decode(g.encode(s)), s);
    }
    const std::vector<tf::token> bad = {50257};
    EXPECT_THROW(g.decode(bad), std::invalid_argument);
}

TEST(GPT2, MalformedFilesAreRejectedWithAReason) {
    auto message = [](std::string_view json, std::string_view bpe) {
        try {
            (void)tk::gpt2::from_strings(json, bpe);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(message("[1, 2]", "").find("expected '{'"), std::string::npos);
    EXPECT_NE(message("{\"a\": 0, \"a\": 1}", "").find("appears twice"), std::string::npos);
    EXPECT_NE(message("{\"a\": x}", "").find("expected a token id"), std::string::npos);
    EXPECT_NE(message("{\"a\": 0, \"b\": 2}", "").find("id 2 with 2 entries"), std::string::npos);
    EXPECT_NE(message("{\"a\": 1, \"b\": 1}", "").find("given to two"), std::string::npos);
    // an id far past the entries is rejected before anything is sized by it (the fuzzer found a
    // 13 GB allocation here)
    EXPECT_NE(message("{\"a\": 0, \"b\": 4000000000}", "").find("id 4000000000 with 2 entries"),
              std::string::npos);
    EXPECT_NE(message("{\"a\": 0}", "").find("the byte 0 has no token"), std::string::npos);
    const std::string json = file_text((dir + "/encoder.json").c_str(), 1 << 30);
    EXPECT_NE(message(json, "#version: 0.2\nĠ t\nbad line here\n").find("vocab.bpe:3"),
              std::string::npos);
    EXPECT_NE(message(json, "#version: 0.2\nq z\n").find("not in the vocabulary"),
              std::string::npos);
    EXPECT_THROW(tk::gpt2::load(dir + "/missing.json", dir + "/vocab.bpe"), std::runtime_error);
}

}  // namespace
