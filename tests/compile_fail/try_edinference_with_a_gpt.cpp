// Mistake: Algorithm 15's status form asked of a decoder-only model.
// EDInference encodes the context z (Algorithm 8, lines 1–9) and decodes against it; a
// DTransformer has no encoder.
// Fix: an EDTransformer, or try_DInference for the GPT.
// fixed: using gpt = tf::DTransformer<float, tiny>; => using gpt = tf::EDTransformer<float, tiny>;
// covers: try_EDInference(model)
// expect: in::Algorithm_15_EDInference
// first-error: model<typeformer::DTransformer<float, tiny>, needed<typeformer::EDTransformer<float, tiny>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;
using gpt = tf::DTransformer<float, tiny>;

tf::status translate(const gpt& model, tf::kv_cache<gpt>& cache, std::span<const tf::token> z,
                     tf::rng& gen, std::span<tf::token> x_hat, std::size_t& n) {
    return tf::try_EDInference(model, cache, z, {}, gen, x_hat, n);  // error here
}
