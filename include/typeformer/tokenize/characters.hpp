// Character-level tokenization with a vocabulary of characters, as nanoGPT's character datasets
// make it (data/shakespeare_char/prepare.py: chars = sorted(set(text)), stoi, itos, in
// meta.pkl): token i is the vocabulary's i-th character, a character being one Unicode code point
// (a Python str of length 1).
//
//   characters tok(itos)            itos[i]: the UTF-8 of token i's character (one code point each,
//                                   no two alike); std::invalid_argument otherwise
//   characters::from_json(s, src)   the same from a JSON array of strings: what
//                                   `typeformer_torch.py from-nanogpt --meta meta.pkl` keeps in the
//                                   converted file ("nanogpt.vocabulary"; io::nanogpt_vocabulary)
//   encode(text)                    one id per code point, as nanoGPT's [stoi[c] for c in s]; a
//                                   character outside the vocabulary or bytes that are not UTF-8
//                                   throw std::invalid_argument naming it and its position
//   decode(ids), piece(t)           ''.join(itos[i] for i in ids); an id ≥ N_V throws
//
// There are no special tokens (nanoGPT's character models have none). Host code (std::string,
// std::vector, exceptions); stands alone (tokenize/ needs no model).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "../io/json.hpp"
#include "../token.hpp"
#include "utf8.hpp"

namespace typeformer::tokenize {

class characters {
public:
    explicit characters(std::vector<std::string> itos) : itos_(std::move(itos)) {
        if (itos_.empty())
            throw std::invalid_argument("characters: the vocabulary is empty");
        for (std::size_t i = 0; i < itos_.size(); ++i) {
            const std::string& e = itos_[i];
            const auto c = e.empty() ? detail::utf8_char{detail::invalid_code_point, 0}
                                     : detail::decode_utf8_at(e, 0);
            if (c.cp == detail::invalid_code_point || c.len != e.size())
                throw std::invalid_argument(
                    "characters: entry " + std::to_string(i) + " (" + shown(itos_[i]) +
                    ") is not one character (one Unicode code point in UTF-8)");
            if (!stoi_.emplace(c.cp, static_cast<token>(i)).second)
                throw std::invalid_argument("characters: entry " + std::to_string(i) + " (" +
                                            shown(itos_[i]) + ") repeats entry " +
                                            std::to_string(stoi_.at(c.cp)));
        }
    }

    // A JSON array of strings; `source` names it in messages.
    static characters from_json(std::string_view text, std::string_view source) {
        std::vector<std::string> itos;
        json::reader r(text);
        const bool ok = r.array(
            [&] {
                if (r.peek() != json::kind::string)
                    return r.fail("expected a string (one character)");
                return r.string(itos.emplace_back());
            },
            "the vocabulary");
        if (!ok || !r.finish())
            throw std::invalid_argument(std::string(source) + ": " + r.error());
        try {
            return characters(std::move(itos));
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument(std::string(source) + ": " + e.what());
        }
    }

    std::size_t vocab_size() const noexcept { return itos_.size(); }
    const std::vector<std::string>& vocabulary() const noexcept { return itos_; }

    std::vector<token> encode(std::string_view text) const {
        std::vector<token> ids;
        ids.reserve(text.size());
        for (std::size_t i = 0, position = 0; i < text.size(); ++position) {
            const auto c = detail::decode_utf8_at(text, i);
            if (c.cp == detail::invalid_code_point)
                throw std::invalid_argument("characters::encode: byte " + std::to_string(i) +
                                            " of the text is not UTF-8");
            const auto it = stoi_.find(c.cp);
            if (it == stoi_.end())
                throw std::invalid_argument(
                    "characters::encode: character " + std::to_string(position) + " (" +
                    shown(text.substr(i, c.len)) + ") is not in this vocabulary of " +
                    std::to_string(itos_.size()) + " characters");
            ids.push_back(it->second);
            i += c.len;
        }
        return ids;
    }

    std::string decode(std::span<const token> ids) const {
        std::string text;
        for (const token t : ids)
            text += piece(t);
        return text;
    }

    const std::string& piece(token t) const {
        if (t >= itos_.size())
            throw std::invalid_argument(
                "characters::decode: token " + std::to_string(t) +
                " is not in the vocabulary (N_V = " + std::to_string(itos_.size()) + ")");
        return itos_[t];
    }

private:
    // A character for a message: printable ASCII and other UTF-8 as it is in quotes, control
    // characters as U+XXXX.
    static std::string shown(std::string_view s) {
        std::string out = "'";
        for (std::size_t i = 0; i < s.size();) {
            const auto c = detail::decode_utf8_at(s, i);
            if (c.cp == detail::invalid_code_point || c.cp < 0x20 || c.cp == 0x7F) {
                static constexpr char hex[] = "0123456789ABCDEF";
                const std::uint32_t v =
                    c.cp == detail::invalid_code_point ? static_cast<unsigned char>(s[i]) : c.cp;
                out += c.cp == detail::invalid_code_point ? "\\x" : "U+00";
                out += hex[(v >> 4) & 15];
                out += hex[v & 15];
            } else {
                out += s.substr(i, c.len);
            }
            i += c.len;
        }
        return out + "'";
    }

    std::vector<std::string> itos_;
    std::unordered_map<std::uint32_t, token> stoi_;
};

}  // namespace typeformer::tokenize
