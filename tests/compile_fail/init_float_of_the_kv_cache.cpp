// Mistake: initialising the KV cache with init_float as if it held weights.
// init_float draws a model's weights (W ~ N(0, 0.02²), biases 0, γ 1); a KV cache holds the keys
// and values decoding computes, reset by reset(cache).
// Fix: tf::reset(cache); init_float(model, seed) for the weights.
// fixed: tf::init_float(cache, 7); => tf::reset(cache);
// covers: init_float(model)
// expect: in::init_float
// first-error: model<typeformer::kv_cache<typeformer::DTransformer<float, tiny>, needed<typeformer::model_parameters
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

void fresh(tf::kv_cache<tf::DTransformer<float, tiny>>& cache) {
    tf::init_float(cache, 7);  // error here
}
