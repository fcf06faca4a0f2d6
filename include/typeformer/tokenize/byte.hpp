// Byte-level tokenization: every byte is a token, so any text — any bytes, invalid UTF-8
// included — encodes, and decoding gives it back exactly.
//
//   ids 0 … 255        the bytes
//   256, 257, 258      mask, bos, eos: DESIGN's N_V − 3, N_V − 2, N_V − 1 with N_V = 259
//   encode(text)       one id per byte, as tokens<N_V<259>>: the vocabulary is in the type, so a
//                      model with another N_V does not take them (tokens.hpp)
//   decode(ids)        the bytes; the special tokens decode to nothing; an id ≥ N_V throws
//
// Host code (std::string, std::vector, exceptions); stands alone (tokenize/ needs no model).
#pragma once

#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "../dim.hpp"
#include "../token.hpp"
#include "tokens.hpp"

namespace typeformer::tokenize {

struct byte_level {
    static constexpr std::size_t N_V = 259;
    using vocabulary = typeformer::N_V<N_V>;
    static constexpr token mask = mask_token<N_V>;
    static constexpr token bos = bos_token<N_V>;
    static constexpr token eos = eos_token<N_V>;

    static std::size_t vocab_size() noexcept { return N_V; }

    static tokens<vocabulary> encode(std::string_view text) {
        std::vector<token> ids;
        ids.reserve(text.size());
        for (const char c : text)
            ids.push_back(static_cast<unsigned char>(c));
        return tokens<vocabulary>(std::move(ids));
    }

    static std::string decode(std::span<const token> ids) {
        std::string text;
        text.reserve(ids.size());
        for (const token t : ids) {
            if (t < 256)
                text += static_cast<char>(t);
            else if (t >= N_V)
                throw std::invalid_argument("byte_level::decode: token " + std::to_string(t) +
                                            " is not in the vocabulary (N_V = 259)");
        }
        return text;
    }

    // One token's text, for display ("" for a special token).
    static std::string piece(token t) { return decode(std::span<const token>(&t, 1)); }

    std::string serialize() const { return "typeformer-byte 1\n"; }
};

}  // namespace typeformer::tokenize
