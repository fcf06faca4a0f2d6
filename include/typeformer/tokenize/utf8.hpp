// UTF-8, the one encoder and decoder of the host code: a text's code points and a code point's
// bytes. tokenize/gpt2.hpp (pre-tokenization, bytes_to_unicode), tokenize/characters.hpp and
// io/json.hpp (\u escapes) use them.
//
//   decode_utf8_at(s, i)         the code point starting at byte i < s.size() and its length in
//                                bytes; a byte that starts no valid sequence (overlong, surrogate,
//                                past U+10FFFF, cut short) is a code point of its own (length 1)
//                                with value invalid_code_point
//   decode_utf8_multibyte(s, i)  the same where s[i] is known not to be ASCII (gpt2.hpp's fast
//                                path tests ASCII first)
//   append_utf8(out, cp)         cp's 1-4 bytes appended to out (cp <= U+10FFFF)
//   utf8_of(cp)                  the same as a string
//
// Standard library only (no fmt, no exceptions but std::bad_alloc): host code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace typeformer::tokenize::detail {

inline constexpr std::uint32_t invalid_code_point = 0xFFFFFFFF;

// A code point of a text and its length in bytes.
struct utf8_char {
    std::uint32_t cp;
    std::size_t len;
};

inline utf8_char decode_utf8_multibyte(std::string_view s, std::size_t i) noexcept {
    const auto b0 = static_cast<unsigned char>(s[i]);
    const std::size_t n = (b0 >> 5) == 6 ? 2 : (b0 >> 4) == 14 ? 3 : (b0 >> 3) == 30 ? 4 : 0;
    std::uint32_t cp = n == 2 ? (b0 & 0x1F) : n == 3 ? (b0 & 0x0F) : (b0 & 0x07);
    bool ok = n != 0 && i + n <= s.size();
    for (std::size_t k = 1; ok && k < n; ++k) {
        const auto b = static_cast<unsigned char>(s[i + k]);
        ok = (b >> 6) == 2;
        cp = (cp << 6) | (b & 0x3F);
    }
    // overlong forms, surrogates and values past U+10FFFF are invalid too
    ok = ok && !(n == 2 && cp < 0x80) && !(n == 3 && cp < 0x800) && !(n == 4 && cp < 0x10000) &&
         !(cp >= 0xD800 && cp <= 0xDFFF) && cp <= 0x10FFFF;
    return ok ? utf8_char{cp, n} : utf8_char{invalid_code_point, 1};
}

inline utf8_char decode_utf8_at(std::string_view s, std::size_t i) noexcept {
    const auto b0 = static_cast<unsigned char>(s[i]);
    return b0 < 0x80 ? utf8_char{b0, 1} : decode_utf8_multibyte(s, i);
}

inline void append_utf8(std::string& out, std::uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

inline std::string utf8_of(std::uint32_t cp) {
    std::string s;
    append_utf8(s, cp);
    return s;
}

}  // namespace typeformer::tokenize::detail
