// Mistake: saving the KV cache (status form) as if it were weights.
// A safetensors file of typeformer holds parameters by name; a KV cache holds one sequence's keys
// and values, rebuilt by prefill.
// Fix: save the model; keep the tokens (cache.tokens()) and prefill again.
// fixed: const tf::kv_cache<tf::DTransformer<float, tiny>>& cache => const tf::DTransformer<float, tiny>& cache
// covers: io::try_save(model)
// expect: in::try_save
// first-error: model<typeformer::kv_cache<typeformer::DTransformer<float, tiny>, needed<typeformer::model_parameters
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/io.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

auto keep(const tf::kv_cache<tf::DTransformer<float, tiny>>& cache) {
    return tf::io::try_save(cache, "cache.safetensors");  // error here
}
