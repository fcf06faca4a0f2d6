#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <typeformer/tokenize.hpp>

namespace tf = typeformer;
namespace tk = typeformer::tokenize;

namespace {

std::string random_bytes(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 gen(seed);
    std::string s(n, '\0');
    for (auto& c : s)
        c = static_cast<char>(gen() & 0xFF);
    return s;
}

std::string licences() {
    std::string text;
    for (const char* f :
         {"/usr/share/common-licenses/GPL-3", "/usr/share/common-licenses/Apache-2.0"}) {
        std::ifstream in(f, std::ios::binary);
        EXPECT_TRUE(in) << "cannot read " << f;
        text.append(std::istreambuf_iterator<char>(in), {});
    }
    return text;
}

TEST(ByteLevel, RoundTripsArbitraryBytesAndRejectsUnknownIds) {
    for (std::size_t n : {0, 1, 7, 256, 5000}) {
        const std::string s = random_bytes(n, n);
        const auto ids = tk::byte_level::encode(s);
        ASSERT_EQ(ids.size(), n);
        EXPECT_EQ(tk::byte_level::decode(ids), s);
    }
    EXPECT_EQ(tk::byte_level::N_V, 259u);
    EXPECT_EQ(tk::byte_level::mask, 256u);
    EXPECT_EQ(tk::byte_level::bos, 257u);
    EXPECT_EQ(tk::byte_level::eos, 258u);
    const std::vector<tf::token> with_specials = {257, 'h', 'i', 258};
    EXPECT_EQ(tk::byte_level::decode(with_specials), "hi");
    const std::vector<tf::token> bad = {'a', 259};
    EXPECT_THROW(tk::byte_level::decode(bad), std::invalid_argument);
}

// ---- an independent, straightforward BPE: the documented rules, no incremental counts ----

// The documented chunk rule as a regular expression over byte classes: L letters (and bytes
// ≥ 0x80), D digits, S ' ', W other whitespace, O anything else.
std::vector<std::string> naive_chunks(const std::string& s) {
    std::string classes;
    for (unsigned char c : s)
        classes += (std::isalpha(c) || c >= 0x80) ? 'L'
                   : (c >= '0' && c <= '9')       ? 'D'
                   : c == ' '                     ? 'S'
                   : (c >= '\t' && c <= '\r')     ? 'W'
                                                  : 'O';
    static const std::regex chunk("S?L+|S?D+|S?O+|[SW]+?(?=S[LDO])|[SW]+");
    std::vector<std::string> out;
    for (auto it = std::sregex_iterator(classes.begin(), classes.end(), chunk);
         it != std::sregex_iterator(); ++it)
        out.push_back(s.substr(static_cast<std::size_t>(it->position()),
                               static_cast<std::size_t>(it->length())));
    return out;
}

std::vector<std::pair<tf::token, tf::token>> naive_train(const std::string& corpus,
                                                         std::size_t n_merges) {
    std::vector<std::vector<tf::token>> words;
    for (const auto& c : naive_chunks(corpus)) {
        std::vector<tf::token> w;
        for (unsigned char b : c)
            w.push_back(b);
        words.push_back(w);
    }
    std::vector<std::pair<tf::token, tf::token>> merges;
    for (std::size_t m = 0; m < n_merges; ++m) {
        std::map<std::pair<tf::token, tf::token>, long> count;  // ordered: ties → smallest pair
        for (const auto& w : words)
            for (std::size_t i = 0; i + 1 < w.size(); ++i)
                ++count[{w[i], w[i + 1]}];
        std::pair<tf::token, tf::token> best{};
        long best_n = 0;
        for (const auto& [p, n] : count)
            if (n > best_n)
                best = p, best_n = n;
        if (best_n == 0)
            break;
        const tf::token id = static_cast<tf::token>(256 + m);
        for (auto& w : words) {
            std::vector<tf::token> v;
            for (std::size_t i = 0; i < w.size(); ++i) {
                if (i + 1 < w.size() && w[i] == best.first && w[i + 1] == best.second) {
                    v.push_back(id);
                    ++i;
                } else {
                    v.push_back(w[i]);
                }
            }
            w = v;
        }
        merges.push_back(best);
    }
    return merges;
}

TEST(BPE, ChunksFollowTheDocumentedRule) {
    const std::string s = "Hello, world!  It's 2024...\n\n  tabs\tand  é ünïcode 42x ";
    std::vector<std::string> mine;
    for (auto c : tk::detail::chunks(s))
        mine.emplace_back(c);
    const std::vector<std::string> expected = {
        "Hello", ",",     " world", "!",   " ", " It", "'",        "s",   " 2024", "...",
        "\n\n ", " tabs", "\t",     "and", " ", " é",  " ünïcode", " 42", "x",     " "};
    EXPECT_EQ(mine, expected);
    EXPECT_EQ(mine, naive_chunks(s));
    const std::string corpus = licences();
    std::vector<std::string> all;
    for (auto c : tk::detail::chunks(corpus))
        all.emplace_back(c);
    EXPECT_EQ(all, naive_chunks(corpus));
}

TEST(BPE, MergesEqualAStraightforwardImplementation) {
    const std::string corpus = licences().substr(0, 20000);
    const auto trained = tk::bpe::train(corpus, 60);
    EXPECT_EQ(trained.merges(), naive_train(corpus, 60));
    EXPECT_EQ(trained.merge_count(), 60u);
    EXPECT_EQ(trained.vocab_size(), 256u + 60 + 3);
    EXPECT_EQ(trained.eos(), trained.vocab_size() - 1);
}

// Encoding applies the merges by rank inside each chunk; checked against a literal replay of the
// merges in training order on each chunk (the same result for merges learned on this corpus).
TEST(BPE, EncodingReplaysTheMergesAndRoundTrips) {
    const std::string corpus = licences();
    std::size_t reported = 0;
    const auto b =
        tk::bpe::train(corpus.substr(0, 30000), 200, [&](std::size_t done, std::size_t total) {
            EXPECT_EQ(total, 200u);
            reported = done;
        });
    EXPECT_EQ(reported, 200u);
    const std::string text = corpus.substr(30000, 5000);
    const auto ids = b.encode(text);
    EXPECT_LT(ids.size(), text.size() * 7 / 10);  // 200 merges compress English text
    EXPECT_EQ(b.decode(ids), text);
    std::vector<tf::token> replay;
    for (auto chunk : tk::detail::chunks(text)) {
        std::vector<tf::token> w(chunk.begin(), chunk.end());
        for (auto& t : w)
            t &= 0xFF;
        for (std::size_t m = 0; m < b.merges().size(); ++m)
            tk::detail::merge_pair(w, b.merges()[m].first, b.merges()[m].second,
                                   static_cast<tf::token>(256 + m));
        replay.insert(replay.end(), w.begin(), w.end());
    }
    EXPECT_EQ(ids, replay);
    for (std::size_t n : {0, 1, 100, 3000}) {
        const std::string s = random_bytes(n, 40 + n);
        EXPECT_EQ(b.decode(b.encode(s)), s);
    }
    const std::vector<tf::token> bad = {static_cast<tf::token>(b.vocab_size())};
    EXPECT_THROW(b.decode(bad), std::invalid_argument);
}

// Long chunks (merging is n log n in a chunk's length): the same literal replay on words of
// thousands of letters from a small alphabet, where many merges apply at many places; and every
// length from 2 to 70, across merge.hpp's switch from the rescan of short words to the queue.
TEST(BPE, LongChunksReplayTheMerges) {
    std::mt19937_64 gen(11);
    std::string corpus;
    for (int i = 0; i < 4000; ++i)
        corpus += static_cast<char>("abcab"[gen() % 5]);
    const auto b = tk::bpe::train(corpus, 120);
    std::vector<std::size_t> lengths = {3000};
    for (std::size_t n = 2; n <= 70; ++n)
        lengths.push_back(n);
    static_assert(tk::detail::short_word < 70);
    for (const std::size_t n : lengths) {
        std::string word;
        for (std::size_t i = 0; i < n; ++i)
            word += static_cast<char>("abcab"[gen() % 5]);
        std::vector<tf::token> w(word.begin(), word.end());
        for (auto& t : w)
            t &= 0xFF;
        for (std::size_t m = 0; m < b.merges().size(); ++m)
            tk::detail::merge_pair(w, b.merges()[m].first, b.merges()[m].second,
                                   static_cast<tf::token>(256 + m));
        EXPECT_EQ(b.encode(word), w) << n << " letters";
        EXPECT_EQ(b.decode(b.encode(word)), word);
    }
}

TEST(BPE, AnEmptyCorpusIsAnError) {
    EXPECT_THROW((void)tk::bpe::train("", 10), std::invalid_argument);
    EXPECT_EQ(tk::bpe::train("a", 10).merge_count(), 0u);  // no pair at all: no merge
}

TEST(BPE, SerializeSaveAndLoadRoundTrip) {
    const auto b = tk::bpe::train(licences().substr(0, 30000), 100);
    const auto c = tk::bpe::deserialize(b.serialize());
    EXPECT_EQ(c.merges(), b.merges());
    const auto path = std::filesystem::path(TYPEFORMER_TEST_BINARY_DIR) / "merges.bpe";
    b.save(path);
    EXPECT_EQ(tk::bpe::load(path).merges(), b.merges());
    EXPECT_THROW(tk::bpe::load(path.string() + ".missing"), std::runtime_error);
}

TEST(BPE, MalformedFilesNameTheLine) {
    auto message = [](const std::string& s) {
        try {
            (void)tk::bpe::deserialize(s, "f.bpe");
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_EQ(message(""), "f.bpe:0: expected the header line \"typeformer-bpe 1\"");
    EXPECT_EQ(message("typeformer-bpe 2\n"),
              "f.bpe:1: expected the header line \"typeformer-bpe 1\"");
    EXPECT_EQ(message("typeformer-bpe 1\nmerges x\n"), "f.bpe:2: expected \"merges <count>\"");
    EXPECT_EQ(message("typeformer-bpe 1\nmerges 2\n104 105\n"),
              "f.bpe:3: expected 2 merges, the file ends after 1");
    EXPECT_EQ(message("typeformer-bpe 1\nmerges 1\n104\n"),
              "f.bpe:3: expected two token ids \"<a> <b>\"");
    EXPECT_EQ(message("typeformer-bpe 1\nmerges 1\n104 256\n"),
              "f.bpe:3: merge 0 uses an id not defined before it");
    EXPECT_EQ(message("typeformer-bpe 1\nmerges 1\n104 105\nmore\n"),
              "f.bpe:4: unexpected text after the merges");
    EXPECT_EQ(message("typeformer-bpe 1\nmerges 1\n104 105\n"), "accepted");
    // CRLF line ends, as a file edited on Windows has them
    EXPECT_EQ(message("typeformer-bpe 1\r\nmerges 2\r\n104 105\r\n256 33\r\n"), "accepted");
    EXPECT_EQ(message("typeformer-bpe 1\nmerges 3\n104 105\n106 107\n104 105\n"),
              "f.bpe:5: merge 2 (104 105) repeats merge 0");
}

TEST(Dataset, WrapChunkSplitAndWindows) {
    std::vector<tf::token> ids(23);
    for (std::size_t i = 0; i < ids.size(); ++i)
        ids[i] = static_cast<tf::token>(i);
    const auto w = tk::wrap(ids, 100, 101);
    EXPECT_EQ(w.front(), 100u);
    EXPECT_EQ(w.back(), 101u);
    EXPECT_EQ(w.size(), 25u);
    const auto pieces = tk::chunk(ids, 8);
    ASSERT_EQ(pieces.size(), 3u);
    std::vector<tf::token> joined;
    for (const auto& p : pieces) {
        EXPECT_LE(p.size(), 8u);
        joined.insert(joined.end(), p.begin(), p.end());
    }
    EXPECT_EQ(joined, ids);
    const auto [train, held] = tk::split(ids, 0.2);
    EXPECT_EQ(held.size(), 4u);
    EXPECT_EQ(train.size() + held.size(), ids.size());
    EXPECT_EQ(held[0], 19u);

    auto windows = [&](std::uint64_t seed) {
        tk::window_sampler s(ids, 5, seed);
        std::vector<tf::token> starts;
        for (int i = 0; i < 400; ++i) {
            const auto win = s.sample();
            EXPECT_EQ(win.size(), 5u);
            EXPECT_EQ(win.back(), win.front() + 4);  // consecutive, inside the stream
            starts.push_back(win.front());
        }
        return starts;
    };
    const auto a = windows(1);
    EXPECT_EQ(a, windows(1));
    EXPECT_NE(a, windows(2));
    EXPECT_EQ(std::set<tf::token>(a.begin(), a.end()).size(), 19u);  // every start 0 … 18 occurs
    EXPECT_THROW(tk::window_sampler(ids, 24, 0), std::invalid_argument);
}

}  // namespace
