// Mistake: exporting the KV cache as the firmware's weights header instead of the model.
// export_header writes a model's parameters (float, double, or its int8 form q8<Model>); the
// cache of keys and values belongs to a model, but it is decoding's working memory, not weights.
// Fix: tf::io::export_header(model, ...), or tf::io::export_header(q8 model, ...) for int8.
// fourteen: 14 export_header of what is not a model's weights (a q8 model, the trial's, now exports: tests/mcu/export)
// fixed: const tf::kv_cache<tf::DTransformer<float, tiny>>& cache => const tf::DTransformer<float, tiny>& cache
// covers: io::export_header(model)
// expect: in::export_header
// first-error: kv_cache_of<typeformer::DTransformer<float, tiny>, needed<typeformer::DTransformer<float, tiny>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/io.hpp>

struct tiny {
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

void ship(const tf::kv_cache<tf::DTransformer<float, tiny>>& cache) {
    tf::io::export_header(cache, "tiny.hpp", "tiny");  // error here
}
