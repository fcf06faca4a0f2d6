// libFuzzer harness: any bytes as a checkpoint file into try_load_checkpoint. A load either
// succeeds or leaves the model, the training state, the options and the tokenizer unchanged.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include <typeformer/io/checkpoint.hpp>

#include "fuzz_model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    namespace tf = typeformer;
    static const std::string path = "/tmp/typeformer-fuzz-" + std::to_string(::getpid()) + ".ckpt";
    {
        std::FILE* f = std::fopen(path.c_str(), "wb");
        if (!f)
            std::abort();
        if (size > 0 && std::fwrite(data, 1, size, f) != size)
            std::abort();
        std::fclose(f);
    }
    static auto m = std::make_unique<fuzz::model>();
    static auto st = std::make_unique<tf::training_state<fuzz::model>>();
    static auto m0 = std::make_unique<fuzz::model>();
    static auto st_step = std::uint64_t{0};
    std::memcpy(static_cast<void*>(m0.get()), m.get(), sizeof(fuzz::model));
    st_step = st->step;
    tf::training_options opt{};
    opt.lr = 0.125;
    std::string tokenizer = "unchanged";
    const auto r = tf::io::try_load_checkpoint(path, *m, *st, &opt, &tokenizer);
    if (!r.ok() &&
        (std::memcmp(static_cast<const void*>(m0.get()), m.get(), sizeof(fuzz::model)) != 0 ||
         st->step != st_step || opt.lr != 0.125 || tokenizer != "unchanged"))
        std::abort();  // a refused load changed something
    std::remove(path.c_str());
    return 0;
}
