// Mistake: the host form of one decoding step with the int8 model given the float model's cache.
// An int8 model decodes with kv_cache<q8<Model>>: the same K, V shapes, but its own type, so a
// cache is never shared between the float model and its int8 form.
// Fix: kv_cache<q8<Model>> for the int8 model.
// fixed: tf::kv_cache<gpt>& cache => tf::kv_cache<tf::q8<gpt>>& cache
// covers: append(c m)
// expect: in::append
// first-error: kv_cache_of<typeformer::DTransformer<float, tiny>, model<typeformer::quantized<typeformer::DTransformer<float, tiny>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/models/quantized.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;
using gpt = tf::DTransformer<float, tiny>;

void step(const tf::q8<gpt>& q, tf::kv_cache<gpt>& cache, tf::token y) {
    tf::append(q, cache, y);  // error here
}
