// GPT-2's tokenizer: the ids of real texts, of every whitespace and format character in many
// contexts, of every code point, of long words and of random text equal tiktoken's (npm's
// tiktoken, OpenAI's tokenizer, run by node); decode inverts encode on any bytes; malformed files
// are rejected.
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

const std::string dir = TYPEFORMER_GPT3_ENCODER;  // encoder.json, vocab.bpe

const tk::gpt2& tokenizer() {
    static const tk::gpt2 g = tk::gpt2::load(dir + "/encoder.json", dir + "/vocab.bpe");
    return g;
}

// tiktoken's ids for each of texts (valid UTF-8), from one run of node.
std::vector<std::vector<tf::token>> reference(const std::vector<std::string>& texts,
                                              const std::string& name) {
    namespace fs = std::filesystem;
    const fs::path base = fs::path(TYPEFORMER_TEST_BINARY_DIR) / name;
    std::string cmd = typeformer::testing::path_string(TYPEFORMER_NODE) + " " +
                      typeformer::testing::path_string(TYPEFORMER_TEST_SOURCE_DIR) +
                      "/gpt2_reference.js " + TYPEFORMER_TIKTOKEN;
    for (std::size_t i = 0; i < texts.size(); ++i) {
        const fs::path in = base.string() + "." + std::to_string(i) + ".txt";
        std::ofstream(in, std::ios::binary) << texts[i];
        cmd += " " + in.string();
    }
    const fs::path out = base.string() + ".ids";
    cmd += " > " + out.string();
    if (std::system(cmd.c_str()) != 0)
        throw std::runtime_error("the reference encoder failed: " + cmd);
    std::ifstream f(out);
    std::vector<std::vector<tf::token>> ids;
    for (std::string line; std::getline(f, line);) {
        std::istringstream l(line);
        ids.emplace_back();
        for (unsigned long v; l >> v;)
            ids.back().push_back(static_cast<tf::token>(v));
    }
    if (ids.size() != texts.size())
        throw std::runtime_error("the reference encoder gave " + std::to_string(ids.size()) +
                                 " lines for " + std::to_string(texts.size()) + " texts");
    return ids;
}

std::string utf8(std::uint32_t cp) {
    return tk::detail::utf8_of(cp);
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
    std::vector<std::string> all;
    for (const auto& [name, text] : texts)
        all.push_back(text);
    const auto expected = reference(all, "texts");
    for (std::size_t i = 0; i < texts.size(); ++i) {
        const auto mine = g.encode(texts[i].second);
        EXPECT_EQ(mine, expected[i]) << texts[i].first;
        EXPECT_EQ(g.decode(mine), texts[i].second) << texts[i].first;
    }
}

// Every character that is whitespace or a format character to one of the definitions in use
// (Unicode's White_Space, JavaScript's \s, Python re's \s, the general categories Zs, Zl, Zp and
// Cf of Unicode 14), each in contexts that exercise the regex's space rules: before a letter,
// after ' ', doubled, at the end, before a contraction and a digit.
TEST(GPT2, EveryWhitespaceAndFormatCharacterAsTiktoken) {
    std::vector<std::uint32_t> chars = {0x09,   0x0A,   0x0B,   0x0C,   0x0D,   0x1C,   0x1D,
                                        0x1E,   0x1F,   0x20,   0x85,   0xA0,   0x1680, 0x2028,
                                        0x2029, 0x202F, 0x205F, 0x3000, 0x180E, 0xFEFF};
    for (std::uint32_t c = 0x2000; c <= 0x200A; ++c)
        chars.push_back(c);
    const std::pair<std::uint32_t, std::uint32_t> cf[] = {
        // Cf, Unicode 14
        {0xAD, 0xAD},       {0x600, 0x605},     {0x61C, 0x61C},     {0x6DD, 0x6DD},
        {0x70F, 0x70F},     {0x890, 0x891},     {0x8E2, 0x8E2},     {0x180E, 0x180E},
        {0x200B, 0x200F},   {0x202A, 0x202E},   {0x2060, 0x2064},   {0x2066, 0x206F},
        {0xFEFF, 0xFEFF},   {0xFFF9, 0xFFFB},   {0x110BD, 0x110BD}, {0x110CD, 0x110CD},
        {0x13430, 0x13438}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0001, 0xE0001},
        {0xE0020, 0xE007F}};
    for (const auto& [a, b] : cf)
        for (std::uint32_t c = a; c <= b; ++c)
            chars.push_back(c);
    std::vector<std::string> texts;
    for (const std::uint32_t c : chars) {
        const std::string u = utf8(c);
        texts.push_back("a" + u + "b " + u + "x " + u + u + "y" + u + " z " + u + "  w" + u +
                        "'s 1" + u + "2 \n" + u + "\n" + u + " " + u + "!" + u);
    }
    const auto expected = reference(texts, "whitespace");
    const auto& g = tokenizer();
    for (std::size_t i = 0; i < texts.size(); ++i) {
        const auto mine = g.encode(texts[i]);
        EXPECT_EQ(mine, expected[i]) << "U+" << std::hex << chars[i];
        EXPECT_EQ(g.decode(mine), texts[i]);
    }
}

// Under the sanitizers (-O0, every access checked: the full sweep took 36 s there) a sample of
// it: the first 0x250 code points, the last letter or number of each range of unicode_tables.hpp
// and the code points on either side of it, and every 13th code point beyond that. The optimised
// builds (the ci preset) run every code point.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool sample_code_points = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool sample_code_points = true;
#else
constexpr bool sample_code_points = false;
#endif
#else
constexpr bool sample_code_points = false;
#endif

bool in_sample(std::uint32_t c) {
    static const std::vector<bool> near_a_boundary = [] {
        std::vector<bool> v(0x110001, false);
        auto mark = [&](const auto& table) {
            for (const auto& r : table)
                for (const std::uint32_t b : {r.first - 1, r.first, r.last, r.last + 1})
                    if (b < v.size())
                        v[b] = true;
        };
        mark(tk::detail::letter_ranges);
        mark(tk::detail::number_ranges);
        return v;
    }();
    return !sample_code_points || c < 0x250 || c % 13 == 0 || near_a_boundary[c];
}

// Every code point of the planes Unicode assigns letters and numbers in (0–3 and 14; 4–13 are
// unassigned, 15–16 private use), surrogates aside, after a letter, a digit and a space: a
// difference in \p{L} or \p{N} (a Unicode version) or \s shows here.
TEST(GPT2, EveryCodePointAsTiktoken) {
    std::vector<std::string> texts;
    std::size_t tried = 0;
    for (const std::uint32_t block : {0x0u, 0x10000u, 0x20000u, 0x30000u, 0xE0000u}) {
        std::string t;
        for (std::uint32_t c = block; c < block + 0x10000; ++c) {
            if ((c >= 0xD800 && c <= 0xDFFF) || !in_sample(c))
                continue;
            const std::string u = utf8(c);
            t += "a" + u + "1" + u + " " + u + "x ";
            ++tried;
        }
        texts.push_back(std::move(t));
    }
    // the sample is a sample, the sweep is whole
    EXPECT_EQ(tried < 5 * 0x10000 - 0x800, sample_code_points) << tried << " code points";
    const auto expected = reference(texts, "code_points");
    const auto& g = tokenizer();
    for (std::size_t i = 0; i < texts.size(); ++i) {
        const auto mine = g.encode(texts[i]);
        if (mine == expected[i])
            continue;
        // name the first code point whose piece differs
        std::size_t k = 0;
        while (k < mine.size() && k < expected[i].size() && mine[k] == expected[i][k])
            ++k;
        ADD_FAILURE() << "plane " << i << ": ids differ from token " << k << " on, near '"
                      << g.decode(std::vector<tf::token>(
                             mine.begin() + static_cast<std::ptrdiff_t>(k),
                             mine.begin() +
                                 static_cast<std::ptrdiff_t>(std::min(mine.size(), k + 4))))
                      << "'";
    }
}

// Long words (BPE merging is n log n in a word's length here) and random text.
TEST(GPT2, LongWordsAndRandomTextAsTiktoken) {
    std::mt19937_64 gen(7);
    std::vector<std::string> texts;
    for (const std::size_t n : {1000, 20000}) {
        std::string w;
        for (std::size_t i = 0; i < n; ++i)
            w += static_cast<char>('a' + gen() % 26);
        texts.push_back(w);
        texts.push_back(std::string(n, 'a'));
    }
    const std::uint32_t alphabet[] = {'a',  'e',  't',    ' ',    ' ',    '\n',
                                      '\'', '1',  '.',    0xE9,   0x3B1,  0x4E2D,
                                      0x85, 0xA0, 0x2009, 0xFEFF, 0x200B, 0x1F600};
    for (int k = 0; k < 20; ++k) {
        std::string t;
        for (int i = 0; i < 300; ++i)
            t += utf8(alphabet[gen() % std::size(alphabet)]);
        texts.push_back(t);
    }
    const auto expected = reference(texts, "long_random");
    const auto& g = tokenizer();
    for (std::size_t i = 0; i < texts.size(); ++i)
        EXPECT_EQ(g.encode(texts[i]), expected[i]) << "text " << i;
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
    // a merge whose part no earlier merge made, and a merge given twice
    EXPECT_NE(message(json, "#version: 0.2\nhe llo\n").find("neither a byte nor made"),
              std::string::npos);
    EXPECT_NE(message(json, "#version: 0.2\n\u0120 t\n\u0120 t\n").find("repeated merge"),
              std::string::npos);
    EXPECT_THROW(tk::gpt2::load(dir + "/missing.json", dir + "/vocab.bpe"), std::runtime_error);
    // a directory where a file is expected: refused at once, saying what it is
    try {
        (void)tk::gpt2::load(dir, dir + "/vocab.bpe");
        ADD_FAILURE() << "a directory was accepted";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("is a directory"), std::string::npos) << e.what();
    }
}

}  // namespace
