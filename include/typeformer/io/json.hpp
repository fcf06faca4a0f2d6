// A strict JSON reader (RFC 8259) for what typeformer reads: safetensors headers, Hugging Face's
// config.json, nanoGPT's model_args, GPT-2's encoder.json. One reader for io/ and tokenize/.
//
//   json::reader r(text);
//   r.object([&](std::string& key) {          // each member in order; its value read here
//       if (key == "n_head") return r.uint64(n_head, "n_head");
//       return r.skip();                      // any other value, checked and ignored
//   });
//   r.finish();                               // only whitespace may follow
//   if (!r.ok()) report(r.error());           // "expected ':' (byte 17)": the first failure
//
// Values are read where they stand (a pull reader, no tree): object, array, string, uint64,
// number, boolean, null, skip. Every read checks bounds; numbers are checked against the grammar
// and for overflow; nesting is bounded (max_depth, 64 by default); strings are unescaped to
// UTF-8 (\u escapes with their surrogate pairs) and raw bytes are copied as they are (the caller
// validates UTF-8 where it must; io::safetensors does, for the whole header). No undefined
// behaviour on any input: tests/fuzz/json_fuzz.cpp compares it with nlohmann::json's verdicts.
//
// Why not a library: docs/weights.md ("The JSON reader") has the benchmark and the reasons.
// Standard library only (no fmt, no exceptions): host-only like its users.
#pragma once

#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <system_error>

#include "../tokenize/utf8.hpp"

namespace typeformer::json {

enum class kind { object, array, string, number, boolean, null, end, invalid };

class reader {
public:
    explicit reader(std::string_view text, int max_depth = 64) noexcept
        : s_(text), max_depth_(max_depth) {}

    bool ok() const noexcept { return err_.empty(); }
    const std::string& error() const noexcept { return err_; }
    std::size_t position() const noexcept { return pos_; }

    // Records the first failure, "what (byte N)"; always false.
    bool fail(std::string_view what) {
        if (err_.empty()) {
            err_.assign(what);
            err_ += " (byte " + std::to_string(pos_) + ")";
        }
        return false;
    }

    // The kind of the next value (whitespace skipped).
    kind peek() noexcept {
        skip_ws();
        if (at_end())
            return kind::end;
        switch (s_[pos_]) {
            case '{':
                return kind::object;
            case '[':
                return kind::array;
            case '"':
                return kind::string;
            case 't':
            case 'f':
                return kind::boolean;
            case 'n':
                return kind::null;
            default:
                return s_[pos_] == '-' || (s_[pos_] >= '0' && s_[pos_] <= '9') ? kind::number
                                                                               : kind::invalid;
        }
    }

    // An object: member(std::string& key) -> bool reads each value; `what` names the object and
    // `key_what` its keys in messages. Keys may repeat (the caller decides whether that is an
    // error).
    template <class Member>
    bool object(Member&& member, std::string_view what = "an object",
                std::string_view key_what = "a key") {
        skip_ws();
        if (!eat('{'))
            return fail(std::string("expected ") + std::string(what) + " (a JSON object)");
        if (!enter())
            return false;
        skip_ws();
        if (!eat('}')) {
            for (;;) {
                std::string key;
                skip_ws();
                if (peek_char() != '"')
                    return fail(std::string("expected ") + std::string(key_what) +
                                " (a JSON string)");
                if (!string(key))
                    return false;
                skip_ws();
                if (!eat(':'))
                    return fail("expected ':'");
                if (!member(key))
                    return fail("invalid value");  // keeps the member's own message if it set one
                skip_ws();
                if (eat(','))
                    continue;
                if (eat('}'))
                    break;
                return fail(std::string("expected ',' or '}' in ") + std::string(what));
            }
        }
        --depth_;
        return true;
    }

    // An array: element() -> bool reads each element.
    template <class Element>
    bool array(Element&& element, std::string_view what = "an array") {
        skip_ws();
        if (!eat('['))
            return fail(std::string("expected ") + std::string(what) + " (a JSON array)");
        if (!enter())
            return false;
        skip_ws();
        if (!eat(']')) {
            for (;;) {
                skip_ws();
                if (!element())
                    return fail("invalid value");
                skip_ws();
                if (eat(','))
                    continue;
                if (eat(']'))
                    break;
                return fail(std::string("expected ',' or ']' in ") + std::string(what));
            }
        }
        --depth_;
        return true;
    }

    // A string, unescaped, appended to `out`.
    bool string(std::string& out) {
        skip_ws();
        if (!eat('"'))
            return fail("expected a string");
        for (;;) {
            // the run up to the next quote, backslash or control character, copied at once
            const std::size_t run = pos_;
            while (pos_ < s_.size() && s_[pos_] != '"' && s_[pos_] != '\\' &&
                   static_cast<unsigned char>(s_[pos_]) >= 0x20)
                ++pos_;
            out.append(s_.data() + run, pos_ - run);
            if (at_end())
                return fail("unterminated string");
            const char c = s_[pos_++];
            if (c == '"')
                return true;
            if (c != '\\') {
                --pos_;
                return fail("control character in a string");
            }
            if (at_end())
                return fail("unterminated escape");
            const char e = s_[pos_++];
            switch (e) {
                case '"':
                case '\\':
                case '/':
                    out += e;
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
                    std::uint32_t cp = 0;
                    if (!hex4(cp))
                        return false;
                    if (cp >= 0xDC00 && cp <= 0xDFFF)
                        return fail("lone low surrogate in a \\u escape");
                    if (cp >= 0xD800 && cp <= 0xDBFF) {
                        std::uint32_t lo = 0;
                        if (!eat('\\') || !eat('u'))
                            return fail("lone high surrogate in a \\u escape");
                        if (!hex4(lo))
                            return false;
                        if (lo < 0xDC00 || lo > 0xDFFF)
                            return fail("bad surrogate pair in a \\u escape");
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    }
                    tokenize::detail::append_utf8(out, cp);
                    break;
                }
                default:
                    --pos_;
                    return fail("invalid escape in a string");
            }
        }
    }

    // A number that must be a non-negative integer below 2^64; `what` names it in messages.
    bool uint64(std::uint64_t& v, std::string_view what = "a number") {
        skip_ws();
        const std::string w(what);
        if (peek_char() == '-')
            return fail(w + " is negative");
        if (peek_char() < '0' || peek_char() > '9')
            return fail(w + " is not a non-negative integer");
        if (peek_char() == '0' && pos_ + 1 < s_.size() && s_[pos_ + 1] >= '0' &&
            s_[pos_ + 1] <= '9')
            return fail(w + " has a leading zero");
        v = 0;
        while (!at_end() && s_[pos_] >= '0' && s_[pos_] <= '9') {
            const auto d = static_cast<std::uint64_t>(s_[pos_] - '0');
            if (v > (~std::uint64_t{0} - d) / 10)
                return fail(w + " is too large");
            v = v * 10 + d;
            ++pos_;
        }
        if (peek_char() == '.' || peek_char() == 'e' || peek_char() == 'E')
            return fail(w + " is not an integer");
        return true;
    }

    // Any JSON number, as the nearest double (±∞ when it overflows: a caller that needs a finite
    // value checks).
    bool number(double& v) {
        skip_ws();
        const std::size_t start = pos_;
        if (!skip_number())
            return false;
        const char* first = s_.data() + start;
        const auto [p, ec] = std::from_chars(first, s_.data() + pos_, v);
        if (ec == std::errc::result_out_of_range) {  // beyond double's range, or below it
            v = decimal_exponent(first, s_.data() + pos_) >= 0
                    ? (first[0] == '-' ? -HUGE_VAL : HUGE_VAL)
                    : (first[0] == '-' ? -0.0 : 0.0);
            return true;
        }
        if (ec != std::errc{} || p != s_.data() + pos_)
            return fail("invalid number");
        return true;
    }

    bool boolean(bool& v) {
        skip_ws();
        if (eat_literal("true"))
            return v = true, true;
        if (eat_literal("false"))
            return v = false, true;
        return fail("expected true or false");
    }

    bool null() {
        skip_ws();
        return eat_literal("null") || fail("expected null");
    }

    // Any value, checked and dropped.
    bool skip() {
        switch (peek()) {
            case kind::object:
                return object([&](std::string&) { return skip(); });
            case kind::array:
                return array([&] { return skip(); });
            case kind::string: {
                std::string ignored;
                return string(ignored);
            }
            case kind::number:
                return skip_number();
            case kind::boolean:
                if (eat_literal("true") || eat_literal("false"))
                    return true;
                break;
            case kind::null:
                if (eat_literal("null"))
                    return true;
                break;
            case kind::end:
                return fail("unexpected end of the text");
            case kind::invalid:
                break;
        }
        return fail("invalid JSON value");
    }

    // Nothing but whitespace after the value.
    bool finish(std::string_view what = "unexpected bytes after the JSON value") {
        skip_ws();
        return at_end() || fail(what);
    }

private:
    std::string_view s_;
    std::size_t pos_ = 0;
    int depth_ = 0, max_depth_;
    std::string err_;

    bool at_end() const noexcept { return pos_ >= s_.size(); }
    char peek_char() const noexcept { return at_end() ? '\0' : s_[pos_]; }
    bool eat(char c) noexcept {
        if (!at_end() && s_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }
    bool eat_literal(std::string_view lit) noexcept {
        if (s_.substr(pos_, lit.size()) == lit) {
            pos_ += lit.size();
            return true;
        }
        return false;
    }
    void skip_ws() noexcept {
        while (!at_end() &&
               (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r'))
            ++pos_;
    }
    bool enter() {
        if (++depth_ > max_depth_)
            return fail("JSON nested too deeply");
        return true;
    }
    bool digits() noexcept {
        if (!(peek_char() >= '0' && peek_char() <= '9'))
            return false;
        while (peek_char() >= '0' && peek_char() <= '9')
            ++pos_;
        return true;
    }
    bool skip_number() {
        eat('-');
        if (eat('0')) {
        } else if (!digits()) {
            return fail("invalid number");
        }
        if (eat('.') && !digits())
            return fail("invalid number");
        if (eat('e') || eat('E')) {
            if (!eat('+'))
                eat('-');
            if (!digits())
                return fail("invalid number");
        }
        return true;
    }
    // ⌊log10 |x|⌋ of a number that matched the grammar (roughly: enough to tell overflow from
    // underflow), the exponent clamped so that it cannot overflow.
    static long decimal_exponent(const char* p, const char* end) noexcept {
        if (*p == '-')
            ++p;
        long integer_digits = 0, leading_zeros = 0, exp = 0;
        bool nonzero = false, fraction = false;
        for (; p != end && *p != 'e' && *p != 'E'; ++p) {
            if (*p == '.') {
                fraction = true;
            } else if (!nonzero && *p == '0') {
                if (fraction)
                    ++leading_zeros;
            } else {
                nonzero = true;
                if (!fraction)
                    ++integer_digits;
            }
        }
        if (p != end) {
            ++p;
            const bool neg = *p == '-';
            if (*p == '-' || *p == '+')
                ++p;
            for (; p != end; ++p)
                exp = exp < 100000 ? exp * 10 + (*p - '0') : exp;
            exp = neg ? -exp : exp;
        }
        return (integer_digits > 0 ? integer_digits - 1 : -(leading_zeros + 1)) + exp;
    }
    bool hex4(std::uint32_t& v) {
        if (s_.size() - pos_ < 4)
            return fail("truncated \\u escape");
        v = 0;
        for (int k = 0; k < 4; ++k) {
            const char c = s_[pos_++];
            v <<= 4;
            if (c >= '0' && c <= '9')
                v |= static_cast<std::uint32_t>(c - '0');
            else if (c >= 'a' && c <= 'f')
                v |= static_cast<std::uint32_t>(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                v |= static_cast<std::uint32_t>(c - 'A' + 10);
            else
                return fail("bad hex digit in a \\u escape");
        }
        return true;
    }
};

}  // namespace typeformer::json
