// Compiled with -fno-exceptions -fno-rtti (tests/infer/CMakeLists.txt): int8 decoding, in static
// storage, must build for a microcontroller (no heap, no exceptions: the try_ forms only).
#include <array>

#include <typeformer/infer/dinference.hpp>
#include <typeformer/infer/kv_cache.hpp>
#include <typeformer/models/quantized.hpp>
#include <typeformer/random.hpp>

namespace tf = typeformer;

namespace {
struct cfg {
    static constexpr std::size_t N_V = 16, l_max = 8, L = 2, H = 2, d_e = 8, d_mlp = 16, d_attn = 4,
                                 d_mid = 4;
};
using model = tf::DTransformer<float, cfg>;
model float_model;
tf::q8<model> q;
tf::kv_cache<tf::q8<model>> cache;
}  // namespace

tf::status quantized_generate(std::array<tf::token, 4>& y, std::size_t& n) noexcept {
    tf::quantize(float_model, q);
    const std::array<tf::token, 2> prompt{1, 2};
    tf::sampling greedy{};
    greedy.tau = 0;
    tf::rng gen(1);
    return tf::try_DInference(q, cache, prompt, y.size(), greedy, gen, y, n);
}
