// GPT-2's byte-level BPE, from its published files: `encoder.json` (token string → id, 50257
// entries) and `vocab.bpe` (the merges, by rank). Encodes to exactly the ids of OpenAI's
// encoder.py and tiktoken (tests/tokenize compare with npm's tiktoken), and decodes back.
//
//   auto g = tf::tokenize::gpt2::load("encoder.json", "vocab.bpe");
//   std::vector<tf::token> ids = g.encode(text);   std::string s = g.decode(ids);
//   g.vocab_size() == 50257, g.eot() == 50256 (<|endoftext|>, the vocabulary's only special token)
//
// The steps, as GPT-2's encoder.py:
//   1. pre-tokenization by the regex 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|
//      \s+(?!\S)|\s+ over code points (written out below; \p{L}, \p{N} from Unicode tables,
//      unicode_tables.hpp; \s as Python's `regex` module and Rust's regex crate (tiktoken) read
//      it: the Unicode White_Space property, so U+0085 is a space and U+FEFF is not);
//   2. each piece's UTF-8 bytes mapped to printable code points (bytes_to_unicode);
//   3. BPE: merge the adjacent pair of lowest rank until no pair has a rank (merge.hpp, n log n
//      in the piece's length; a piece that is a token as a whole is that token, as in tiktoken);
//   4. each resulting symbol's id in encoder.json.
// encode and decode are const and keep no cache: one tokenizer may serve several threads.
// Bytes that are not valid UTF-8 pass through as pieces of their own class (not letter, number or
// space), so any byte string encodes and decode(encode(s)) == s.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "../io/json.hpp"
#include "../io/read_file.hpp"
#include "../token.hpp"
#include "merge.hpp"
#include "unicode_tables.hpp"
#include "utf8.hpp"

namespace typeformer::tokenize {

namespace detail {

template <std::size_t N>
bool in_ranges(const code_point_range (&table)[N], std::uint32_t cp) noexcept {
    const auto it = std::upper_bound(table, table + N, cp,
                                     [](std::uint32_t c, const auto& r) { return c < r.first; });
    return it != table && cp <= (it - 1)->last;
}

inline bool is_letter_cp(std::uint32_t cp) noexcept {
    return in_ranges(letter_ranges, cp);
}
inline bool is_number_cp(std::uint32_t cp) noexcept {
    return in_ranges(number_ranges, cp);
}
// \s of Python's `regex` (encoder.py's) and of Rust's regex crate (tiktoken's): the Unicode
// White_Space property (PropList.txt, unchanged since Unicode 6.3). Not JavaScript's \s, which
// adds U+FEFF and drops U+0085, nor Python's re, which adds U+001C … U+001F.
inline bool is_space_cp(std::uint32_t cp) noexcept {
    return (cp >= 0x09 && cp <= 0x0D) || cp == 0x20 || cp == 0x85 || cp == 0xA0 || cp == 0x1680 ||
           (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F ||
           cp == 0x205F || cp == 0x3000;
}

// What the regex sees in a code point. Bytes that are not valid UTF-8 are `other`.
enum class cp_class : std::uint8_t { letter, number, space, other };

inline constexpr auto ascii_classes = [] {
    std::array<cp_class, 128> t{};
    for (std::uint32_t c = 0; c < 128; ++c)
        t[c] = (c | 0x20) >= 'a' && (c | 0x20) <= 'z' ? cp_class::letter
               : c >= '0' && c <= '9'                 ? cp_class::number
               : c == ' ' || (c >= 0x09 && c <= 0x0D) ? cp_class::space
                                                      : cp_class::other;
    return t;
}();

inline cp_class classify_cp(std::uint32_t cp) noexcept {
    if (cp < 0x80)
        return ascii_classes[cp];
    return is_letter_cp(cp)   ? cp_class::letter
           : is_number_cp(cp) ? cp_class::number
           : is_space_cp(cp)  ? cp_class::space
                              : cp_class::other;
}

// The code point starting at byte i < s.size(): its value (invalid_code_point for a byte that
// starts no valid UTF-8 sequence: a code point of its own), its class and its length in bytes.
struct code_point {
    std::uint32_t cp;
    cp_class cls;
    std::size_t len;
};

inline code_point decode_multibyte(std::string_view s, std::size_t i) noexcept {
    const auto [cp, len] = decode_utf8_multibyte(s, i);  // utf8.hpp
    return {cp, cp == invalid_code_point ? cp_class::other : classify_cp(cp), len};
}

inline code_point decode_at(std::string_view s, std::size_t i) noexcept {
    const auto b0 = static_cast<unsigned char>(s[i]);
    return b0 < 0x80 ? code_point{b0, ascii_classes[b0], 1} : decode_multibyte(s, i);
}

// Step 1: calls piece(begin, end) with the byte range of each piece of the regex, in order (one
// pass, nothing stored: a text of any size needs no memory beyond its ids).
template <class Piece>
void for_each_piece(std::string_view s, Piece&& piece) {
    const std::size_t n = s.size();
    auto cls_at = [&](std::size_t k) { return decode_at(s, k).cls; };
    std::size_t i = 0;
    while (i < n) {
        // 's|'t|'re|'ve|'m|'ll|'d (ASCII: comparing bytes compares code points)
        if (s[i] == '\'' && i + 1 < n) {
            const char a = s[i + 1], b = i + 2 < n ? s[i + 2] : '\0';
            std::size_t len = 0;
            if (a == 's' || a == 't' || a == 'm' || a == 'd')
                len = 2;
            else if ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l'))
                len = 3;
            if (len) {
                piece(i, i + len);
                i += len;
                continue;
            }
        }
        // ' ?\p{L}+', ' ?\p{N}+', ' ?[^\s\p{L}\p{N}]+': the optional space, then a run of one class
        const std::size_t j0 = s[i] == ' ' ? i + 1 : i;
        const cp_class c = j0 < n ? cls_at(j0) : cp_class::space;
        if (c != cp_class::space) {
            std::size_t j = j0;
            for (code_point p; j < n && (p = decode_at(s, j)).cls == c;)
                j += p.len;
            piece(i, j);
            i = j;
            continue;
        }
        // whitespace: '\s+(?!\S)' leaves the last space for the next piece, else '\s+'
        std::size_t j = i, last = i, count = 0;
        for (code_point p; j < n && (p = decode_at(s, j)).cls == cp_class::space; ++count)
            last = j, j += p.len;
        if (j < n && count >= 2)
            j = last;
        piece(i, j);
        i = j;
    }
}

// Step 2: byte b ↦ a printable code point (GPT-2's bytes_to_unicode; utf8_of gives its UTF-8).
inline std::array<std::uint32_t, 256> bytes_to_unicode() {
    std::array<std::uint32_t, 256> map{};
    std::uint32_t next = 256;
    for (std::uint32_t b = 0; b < 256; ++b) {
        const bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE);
        map[b] = printable ? b : next++;
    }
    return map;
}

// A JSON object of string → non-negative integer (encoder.json), strictly parsed (io/json.hpp,
// the reader of the weights files too).
inline std::unordered_map<std::string, std::uint32_t> parse_vocab_json(std::string_view s,
                                                                       std::string_view source) {
    std::unordered_map<std::string, std::uint32_t> vocab;
    json::reader r(s);
    if (r.peek() != json::kind::object)
        r.fail("expected '{' (encoder.json is a JSON object)");
    else
        r.object(
            [&](std::string& key) {
                std::uint64_t v = 0;
                if (r.peek() != json::kind::number || !r.uint64(v, "a token id") ||
                    v > 0xFFFFFFFEull)
                    return r.fail("expected a token id");
                return vocab.emplace(std::move(key), static_cast<std::uint32_t>(v)).second ||
                       r.fail("a token string appears twice");
            },
            "encoder.json", "a token string");
    if (r.ok())
        r.finish("unexpected text after the object");
    if (!r.ok())
        throw std::invalid_argument(std::string(source) + ": " + r.error());
    return vocab;
}

}  // namespace detail

class gpt2 {
public:
    static gpt2 load(const std::filesystem::path& encoder_json,
                     const std::filesystem::path& vocab_bpe) {
        return from_strings(io::read_file(encoder_json), io::read_file(vocab_bpe),
                            encoder_json.string(), vocab_bpe.string());
    }

    static gpt2 from_strings(std::string_view encoder_json, std::string_view vocab_bpe,
                             std::string_view json_name = "encoder.json",
                             std::string_view bpe_name = "vocab.bpe") {
        gpt2 g;
        g.encoder_ = detail::parse_vocab_json(encoder_json, json_name);
        std::uint32_t max_id = 0;
        for (const auto& [k, v] : g.encoder_)
            max_id = std::max(max_id, v);
        // The ids must be 0 … n-1 for n entries: checked before the id table is sized by the
        // largest id, so a stray large id is an error, not a multi-gigabyte allocation.
        if (!g.encoder_.empty() && max_id >= g.encoder_.size())
            throw std::invalid_argument(std::string(json_name) + ": ids are not 0 … " +
                                        std::to_string(g.encoder_.size() - 1) + " (id " +
                                        std::to_string(max_id) + " with " +
                                        std::to_string(g.encoder_.size()) + " entries)");
        g.decoder_.assign(g.encoder_.empty() ? 0 : max_id + 1, {});
        // n distinct ids below n cover 0 … n-1, so a repeated id is the only way one can be missing
        std::vector<bool> seen(g.decoder_.size(), false);
        for (const auto& [k, v] : g.encoder_) {
            if (seen[v])
                throw std::invalid_argument(std::string(json_name) + ": id " + std::to_string(v) +
                                            " is given to two token strings");
            seen[v] = true;
            g.decoder_[v] = k;
        }
        g.byte_encoder_ = detail::bytes_to_unicode();
        for (std::uint32_t b = 0; b < 256; ++b) {
            g.byte_symbol_[b] = detail::utf8_of(g.byte_encoder_[b]);
            g.byte_of_symbol_[g.byte_encoder_[b]] = static_cast<std::int16_t>(b);
            if (!g.encoder_.count(g.byte_symbol_[b]))
                throw std::invalid_argument(std::string(json_name) + ": the byte " +
                                            std::to_string(b) + " has no token");
        }
        // vocab.bpe: a "#version" line, then one merge "a b" per line, by rank. Each part must
        // be a byte or the result of an earlier merge (what makes merge.hpp's order GPT-2's).
        std::vector<bool> made(g.decoder_.size(), false);
        for (std::uint32_t b = 0; b < 256; ++b) {
            g.byte_id_[b] = g.encoder_.at(g.byte_symbol_[b]);
            made[g.byte_id_[b]] = true;
        }
        std::size_t line_no = 0;
        std::uint32_t rank = 0;
        std::string_view rest = vocab_bpe;
        while (!rest.empty()) {
            const auto nl = rest.find('\n');
            std::string_view line = rest.substr(0, nl);
            rest = nl == std::string_view::npos ? std::string_view{} : rest.substr(nl + 1);
            ++line_no;
            if (!line.empty() && line.back() == '\r')
                line.remove_suffix(1);
            if (line.empty() || (line_no == 1 && line.starts_with("#version")))
                continue;
            auto fail = [&](const std::string& what) {
                return std::invalid_argument(std::string(bpe_name) + ":" + std::to_string(line_no) +
                                             ": " + what);
            };
            const auto sp = line.find(' ');
            if (sp == std::string_view::npos || sp == 0 || sp + 1 == line.size() ||
                line.find(' ', sp + 1) != std::string_view::npos)
                throw fail("expected a merge \"a b\"");
            const std::string a(line.substr(0, sp)), b(line.substr(sp + 1));
            const auto ia = g.encoder_.find(a), ib = g.encoder_.find(b),
                       im = g.encoder_.find(a + b);
            if (im == g.encoder_.end())
                throw fail("the merge's result is not in the vocabulary");
            if (ia == g.encoder_.end() || ib == g.encoder_.end() || !made[ia->second] ||
                !made[ib->second])
                throw fail("a part of the merge is neither a byte nor made by an earlier merge");
            if (made[im->second])
                throw fail(
                    "the merge's result is already a byte or made by an earlier merge "
                    "(a repeated merge?)");
            made[im->second] = true;
            g.merges_.emplace(detail::pair_key(ia->second, ib->second),
                              detail::merge_rule{rank++, im->second});
        }
        // Pieces that are a token as a whole (bytes and merge results: tiktoken's mergeable
        // ranks), keyed by their raw bytes.
        for (std::size_t id = 0; id < g.decoder_.size(); ++id)
            if (made[id])
                g.whole_.emplace(g.decode_symbols(g.decoder_[id]), static_cast<token>(id));
        const auto eot = g.encoder_.find("<|endoftext|>");
        g.eot_ = eot == g.encoder_.end() ? static_cast<token>(g.decoder_.size()) : eot->second;
        return g;
    }

    std::size_t vocab_size() const noexcept { return decoder_.size(); }
    token eot() const noexcept { return eot_; }  // <|endoftext|>

    std::vector<token> encode(std::string_view text) const {
        std::vector<token> ids, word;
        ids.reserve(text.size() / 4);
        detail::for_each_piece(text, [&](std::size_t b, std::size_t e) {
            const std::string_view piece = text.substr(b, e - b);
            if (const auto it = whole_.find(piece); it != whole_.end()) {
                ids.push_back(it->second);
                return;
            }
            word.clear();
            for (const char c : piece)
                word.push_back(byte_id_[static_cast<unsigned char>(c)]);
            detail::merge_by_rank(word, merges_);
            ids.insert(ids.end(), word.begin(), word.end());
        });
        return ids;
    }

    std::string decode(std::span<const token> ids) const {
        std::string symbols;
        for (const token t : ids) {
            if (t >= decoder_.size())
                throw std::invalid_argument(
                    "gpt2::decode: token " + std::to_string(t) +
                    " is not in the vocabulary (N_V = " + std::to_string(decoder_.size()) + ")");
            symbols += decoder_[t];
        }
        return decode_symbols(symbols);
    }

    std::string piece(token t) const { return decode(std::span<const token>(&t, 1)); }

private:
    // Token strings (printable code points) back to their bytes.
    std::string decode_symbols(std::string_view symbols) const {
        std::string bytes;
        bytes.reserve(symbols.size());
        for (std::size_t i = 0; i < symbols.size();) {
            const auto c = detail::decode_at(symbols, i);
            if (c.cp >= byte_of_symbol_.size() || byte_of_symbol_[c.cp] < 0)
                throw std::invalid_argument("gpt2::decode: a token holds a symbol that is no byte");
            bytes += static_cast<char>(byte_of_symbol_[c.cp]);
            i += c.len;
        }
        return bytes;
    }

    static std::array<std::int16_t, 256 + 68> filled(std::int16_t v) {
        std::array<std::int16_t, 256 + 68> a;
        a.fill(v);
        return a;
    }

    // Heterogeneous lookup: a piece is looked up as a string_view, without a copy.
    struct string_hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const noexcept {
            return std::hash<std::string_view>{}(s);
        }
    };

    std::unordered_map<std::string, std::uint32_t> encoder_;
    std::vector<std::string> decoder_;
    detail::merge_table merges_;  // (id, id) → rank, merged id
    std::unordered_map<std::string, token, string_hash, std::equal_to<>> whole_;  // bytes → id
    std::array<std::uint32_t, 256> byte_encoder_{};
    std::array<std::string, 256> byte_symbol_;
    std::array<token, 256> byte_id_{};
    // byte_encoder_'s inverse: symbol code point → byte, −1 for a code point that is no byte's
    std::array<std::int16_t, 256 + 68> byte_of_symbol_ = filled(-1);
    token eot_ = 0;
};

}  // namespace typeformer::tokenize
