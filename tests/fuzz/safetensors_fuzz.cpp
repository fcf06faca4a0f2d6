// libFuzzer harness: any bytes into try_load_state (both NaN policies). A load either succeeds
// or leaves the model bit-identical; it never crashes, reads out of bounds or hangs.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <span>

#include <typeformer/io/safetensors.hpp>

#include "fuzz_model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    namespace tio = typeformer::io;
    static auto m = std::make_unique<fuzz::model>();
    static auto before = std::make_unique<fuzz::model>();
    const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
    for (auto nf : {tio::non_finite_values::reject, tio::non_finite_values::accept}) {
        std::memcpy(static_cast<void*>(before.get()), m.get(), sizeof(fuzz::model));
        tio::metadata md;
        const auto r = tio::try_load_state(*m, bytes, "fuzz", &md, nf);
        if (!r.ok() &&
            std::memcmp(static_cast<const void*>(before.get()), m.get(), sizeof(fuzz::model)) != 0)
            std::abort();  // a refused load changed the model
        if (r.ok() != (r.code == tio::status::ok) || (!r.ok() && r.message.empty()))
            std::abort();
    }
    return 0;
}
