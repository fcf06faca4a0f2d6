// Byte-pair encoding (Sennrich et al. 2016; GPT-2's byte-level form): a vocabulary learned from a
// corpus by repeatedly merging the most frequent adjacent pair of symbols.
//
//   ids 0 … 255                  the bytes (so every text encodes, invalid UTF-8 included)
//   256 + i                      merge i: the concatenation of its pair (a, b)
//   vocab_size() − 3, −2, −1     mask, bos, eos (DESIGN's special tokens)
//
//   bpe::train(corpus, n_merges[, progress])   learns up to n_merges merges
//   encode(text), decode(ids)                  decode(encode(s)) == s for every byte string
//   serialize() / deserialize(s)               the text format below; save(path) (atomic) / load
//
// encode is const and keeps no cache (one tokenizer may serve several threads); merging a chunk
// is n log n in its length (merge.hpp).
//
// Pre-tokenization: merges never cross the boundaries of these chunks (GPT-2's rule on bytes):
// a run of letters (A–Z, a–z and every byte ≥ 0x80, so UTF-8 letters stay whole), a run of
// digits, a run of other non-space bytes — each with at most one ' ' in front of it — and runs
// of whitespace (of which a last ' ' goes to the chunk after it).
// Training: each merge takes the pair with the highest count over the corpus's chunks; a tie
// goes to the smaller (a, b) (by ids). A pair is merged left to right, non-overlapping, in every
// chunk. Encoding applies the learned merges in order of rank, as GPT-2 does.
//
// File format (text, one item per line, LF or CRLF):
//   typeformer-bpe 1
//   merges <n>
//   <a> <b>            n lines: merge i of ids a, b (each < 256 + i; no pair twice)
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <system_error>
#include <unordered_map>
#include <utility>
#include <vector>

#include "../io/atomic_file.hpp"
#include "../io/read_file.hpp"
#include "../token.hpp"
#include "merge.hpp"

namespace typeformer::tokenize {

namespace detail {

enum class byte_class { letter, digit, space, other };

inline byte_class classify(unsigned char c) noexcept {
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c >= 0x80)
        return byte_class::letter;
    if (c >= '0' && c <= '9')
        return byte_class::digit;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f')
        return byte_class::space;
    return byte_class::other;
}

// The pre-tokenization chunks of text (views into it), in order; their concatenation is text.
inline std::vector<std::string_view> chunks(std::string_view text) {
    std::vector<std::string_view> out;
    const std::size_t n = text.size();
    auto cls = [&](std::size_t k) { return classify(static_cast<unsigned char>(text[k])); };
    std::size_t i = 0;
    while (i < n) {
        if (cls(i) == byte_class::space) {
            std::size_t j = i;
            while (j < n && cls(j) == byte_class::space)
                ++j;
            // [i, j) is whitespace; a last ' ' before a non-space leads the next chunk instead
            const std::size_t end = (j < n && text[j - 1] == ' ') ? j - 1 : j;
            if (end > i)
                out.push_back(text.substr(i, end - i));
            i = end;
            if (i == j)
                continue;
        }
        // one chunk: an optional leading ' ', then a run of one class (letters, digits, other)
        std::size_t j = text[i] == ' ' ? i + 1 : i;
        const byte_class c = cls(j);
        while (j < n && cls(j) == c)
            ++j;
        out.push_back(text.substr(i, j - i));
        i = j;
    }
    return out;
}

// Merges every non-overlapping (a, b) of word into m, left to right; true if any.
inline bool merge_pair(std::vector<token>& word, token a, token b, token m) {
    bool any = false;
    std::size_t out = 0;
    for (std::size_t i = 0; i < word.size(); ++i) {
        if (i + 1 < word.size() && word[i] == a && word[i + 1] == b) {
            word[out++] = m;
            ++i;
            any = true;
        } else {
            word[out++] = word[i];
        }
    }
    word.resize(out);
    return any;
}

}  // namespace detail

class bpe {
public:
    using progress_fn = std::function<void(std::size_t done, std::size_t total)>;

    bpe() { rebuild(); }

    // Learns up to n_merges merges from corpus (fewer when no adjacent pair is left to merge:
    // merge_count() says how many); an empty corpus throws std::invalid_argument.
    static bpe train(std::string_view corpus, std::size_t n_merges,
                     const progress_fn& progress = {}) {
        if (corpus.empty())
            throw std::invalid_argument("bpe::train: the corpus is empty");
        // The corpus as unique chunks with their counts.
        std::unordered_map<std::string_view, std::int64_t> freq;
        for (const auto c : detail::chunks(corpus))
            ++freq[c];
        std::vector<std::vector<token>> words;
        std::vector<std::int64_t> counts;
        words.reserve(freq.size());
        for (const auto& [chunk, count] : freq) {
            std::vector<token> w;
            for (const char ch : chunk)
                w.push_back(static_cast<unsigned char>(ch));
            words.push_back(std::move(w));
            counts.push_back(count);
        }
        std::unordered_map<std::uint64_t, std::int64_t> pairs;
        auto add_pairs = [&](const std::vector<token>& w, std::int64_t k) {
            for (std::size_t i = 0; i + 1 < w.size(); ++i)
                pairs[detail::pair_key(w[i], w[i + 1])] += k;
        };
        for (std::size_t i = 0; i < words.size(); ++i)
            add_pairs(words[i], counts[i]);

        bpe out;
        for (std::size_t m = 0; m < n_merges; ++m) {
            std::uint64_t best = 0;
            std::int64_t best_count = 0;
            for (const auto& [key, count] : pairs)
                if (count > best_count || (count == best_count && count > 0 && key < best))
                    best = key, best_count = count;
            if (best_count <= 0)
                break;
            const auto a = static_cast<token>(best >> 32), b = static_cast<token>(best);
            const auto id = static_cast<token>(256 + out.merges_.size());
            for (std::size_t i = 0; i < words.size(); ++i) {
                auto& w = words[i];
                bool has = false;
                for (std::size_t j = 0; j + 1 < w.size() && !has; ++j)
                    has = w[j] == a && w[j + 1] == b;
                if (!has)
                    continue;
                add_pairs(w, -counts[i]);
                detail::merge_pair(w, a, b, id);
                add_pairs(w, counts[i]);
            }
            for (auto it = pairs.begin(); it != pairs.end();)
                it = it->second == 0 ? pairs.erase(it) : std::next(it);
            out.merges_.push_back({a, b});
            if (progress)
                progress(m + 1, n_merges);
        }
        out.rebuild();
        return out;
    }

    std::size_t vocab_size() const noexcept { return 256 + merges_.size() + 3; }
    std::size_t merge_count() const noexcept { return merges_.size(); }
    const std::vector<std::pair<token, token>>& merges() const noexcept { return merges_; }
    token mask() const noexcept { return static_cast<token>(vocab_size() - 3); }
    token bos() const noexcept { return static_cast<token>(vocab_size() - 2); }
    token eos() const noexcept { return static_cast<token>(vocab_size() - 1); }

    // const and without a cache: one tokenizer may serve several threads.
    std::vector<token> encode(std::string_view text) const {
        std::vector<token> ids, word;
        for (const auto chunk : detail::chunks(text)) {
            word.assign(chunk.begin(), chunk.end());
            for (auto& t : word)
                t = static_cast<unsigned char>(t);
            detail::merge_by_rank(word, table_);  // GPT-2's rule: lowest rank first
            ids.insert(ids.end(), word.begin(), word.end());
        }
        return ids;
    }

    // The bytes of ids; the special tokens decode to nothing; an id outside the vocabulary throws.
    std::string decode(std::span<const token> ids) const {
        std::string text;
        for (const token t : ids) {
            if (t < pieces_.size())
                text += pieces_[t];
            else if (t >= vocab_size())
                throw std::invalid_argument(
                    "bpe::decode: token " + std::to_string(t) +
                    " is not in the vocabulary (N_V = " + std::to_string(vocab_size()) + ")");
        }
        return text;
    }

    // One token's bytes ("" for a special token).
    std::string piece(token t) const { return decode(std::span<const token>(&t, 1)); }

    std::string serialize() const {
        std::string s = "typeformer-bpe 1\nmerges " + std::to_string(merges_.size()) + "\n";
        for (const auto& [a, b] : merges_)
            s += std::to_string(a) + ' ' + std::to_string(b) + '\n';
        return s;
    }

    // The inverse of serialize(); a malformed text throws std::invalid_argument naming the line.
    // Lines may end in CRLF; a merge given twice is an error.
    static bpe deserialize(std::string_view s, std::string_view source = "<bpe>") {
        std::size_t line_no = 0;
        auto fail = [&](const std::string& what) -> void {
            throw std::invalid_argument(std::string(source) + ":" + std::to_string(line_no) + ": " +
                                        what);
        };
        auto next_line = [&](std::string_view& line) {
            if (s.empty())
                return false;
            const auto nl = s.find('\n');
            line = s.substr(0, nl);
            s = nl == std::string_view::npos ? std::string_view{} : s.substr(nl + 1);
            if (!line.empty() && line.back() == '\r')
                line.remove_suffix(1);
            ++line_no;
            return true;
        };
        auto parse_uint = [&](std::string_view t, std::uint64_t& v) {
            if (t.empty() || t.size() > 12)
                return false;
            v = 0;
            for (const char c : t) {
                if (c < '0' || c > '9')
                    return false;
                v = v * 10 + static_cast<std::uint64_t>(c - '0');
            }
            return true;
        };
        std::string_view line;
        if (!next_line(line) || line != "typeformer-bpe 1")
            fail("expected the header line \"typeformer-bpe 1\"");
        std::uint64_t n = 0;
        if (!next_line(line) || !line.starts_with("merges ") || !parse_uint(line.substr(7), n))
            fail("expected \"merges <count>\"");
        if (n > 10'000'000)
            fail("implausible merge count " + std::to_string(n));
        bpe out;
        for (std::uint64_t i = 0; i < n; ++i) {
            if (!next_line(line))
                fail("expected " + std::to_string(n) + " merges, the file ends after " +
                     std::to_string(i));
            const auto sp = line.find(' ');
            std::uint64_t a = 0, b = 0;
            if (sp == std::string_view::npos || !parse_uint(line.substr(0, sp), a) ||
                !parse_uint(line.substr(sp + 1), b))
                fail("expected two token ids \"<a> <b>\"");
            if (a >= 256 + i || b >= 256 + i)
                fail("merge " + std::to_string(i) + " uses an id not defined before it");
            const auto [it, fresh] = out.table_.emplace(
                detail::pair_key(static_cast<token>(a), static_cast<token>(b)),
                detail::merge_rule{static_cast<std::uint32_t>(i), static_cast<token>(256 + i)});
            if (!fresh)
                fail("merge " + std::to_string(i) + " (" + std::to_string(a) + " " +
                     std::to_string(b) + ") repeats merge " + std::to_string(it->second.rank));
            out.merges_.push_back({static_cast<token>(a), static_cast<token>(b)});
        }
        while (next_line(line))
            if (!line.empty())
                fail("unexpected text after the merges");
        out.rebuild();
        return out;
    }

    // Atomic (io/atomic_file.hpp): a temporary file beside path, renamed over it when whole.
    void save(const std::filesystem::path& path) const { io::write_file(path, serialize()); }

    // A regular file only: a directory, FIFO or device is refused without blocking.
    static bpe load(const std::filesystem::path& path) {
        return deserialize(io::read_file(path), path.string());
    }

private:
    void rebuild() {
        pieces_.assign(256 + merges_.size(), {});
        for (std::size_t b = 0; b < 256; ++b)
            pieces_[b] = std::string(1, static_cast<char>(b));
        table_.clear();
        for (std::size_t i = 0; i < merges_.size(); ++i) {
            pieces_[256 + i] = pieces_[merges_[i].first] + pieces_[merges_[i].second];
            table_.emplace(
                detail::pair_key(merges_[i].first, merges_[i].second),
                detail::merge_rule{static_cast<std::uint32_t>(i), static_cast<token>(256 + i)});
        }
    }

    std::vector<std::pair<token, token>> merges_;
    std::vector<std::string> pieces_;  // id → bytes
    detail::merge_table table_;        // pair → rank, merged id
};

}  // namespace typeformer::tokenize
