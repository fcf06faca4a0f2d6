// libFuzzer harness: the JSON reader (io/json.hpp) against nlohmann::json 3.11's verdict on the
// same bytes. Where the text is valid UTF-8 (the reader's callers check UTF-8 themselves), holds
// no NUL byte (nlohmann ends its input at the first one and accepts `0\0garbage`: RFC 8259 and
// this reader do not) and nests at most 64 deep (the reader's bound), it accepts exactly what
// nlohmann::json::accept accepts; and it never crashes, reads out of bounds or recurses without
// bound on any input.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include <nlohmann/json.hpp>

#include <typeformer/io/json.hpp>
#include <typeformer/io/safetensors.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    typeformer::json::reader r(text);
    const bool ours = r.skip() && r.finish();
    if (ours != r.ok())
        std::abort();  // a verdict without its message, or the reverse
    if (typeformer::io::detail::invalid_utf8_at(text) != std::string_view::npos ||
        text.find('\0') != std::string_view::npos)
        return 0;
    if (!ours && r.error().starts_with("JSON nested too deeply"))
        return 0;
    if (ours != nlohmann::json::accept(text)) {
        // nlohmann refuses a number beyond double's range (out_of_range 406, `555555e50000`);
        // the reader accepts it by design (json::reader::number gives ±∞, its callers check).
        if (ours) {
            try {
                (void)nlohmann::json::parse(text);
            } catch (const nlohmann::json::out_of_range& e) {
                if (e.id == 406)
                    return 0;
            } catch (...) {
            }
        }
        std::abort();  // the two readers disagree on valid UTF-8
    }
    return 0;
}
