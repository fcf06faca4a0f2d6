// A GPT-2 tokenizer small enough to build in a test or a fuzzer: GPT-2's 256 byte tokens (its
// byte-to-unicode map), then the given tokens with ids from 256 on and the merges that make them
// (GPT-2's own files are 1.5 MB).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <typeformer/tokenize/gpt2.hpp>

namespace typeformer::testing {

// tokens: "\"th\":256,\"the\":257" (JSON members); merges: "t h\nth e\n"
inline tokenize::gpt2 small_gpt2(std::string_view tokens, std::string_view merges) {
    const auto map = tokenize::detail::bytes_to_unicode();
    std::string json = "{";
    for (std::size_t b = 0; b < 256; ++b) {
        std::string s = tokenize::detail::utf8_of(map[b]);
        if (s == "\"" || s == "\\")
            s = "\\" + s;
        json += (b ? "," : "") + ("\"" + s + "\":" + std::to_string(b));
    }
    if (!tokens.empty())
        json += "," + std::string(tokens);
    json += "}";
    return tokenize::gpt2::from_strings(json, "#version: 0.2\n" + std::string(merges));
}

}  // namespace typeformer::testing
