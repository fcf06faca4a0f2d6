// Mistake: Algorithm 14 (DInference) asked to continue a prompt with a BERT (an ETransformer).
// Sampling the next token reads P[:, t] as P̂(x[t+1] | x[1:t]), which only a unidirectional
// (MaskΔ) model gives; an ETransformer's P[:, t] predicts a masked x[t] from both sides.
// Fix: a DTransformer trained with DTraining (Algorithm 13), or fill_mask for a BERT.
// fixed: const bert& model => const gpt& model
// covers: DInference(model)
// expect: in::Algorithm_14_DInference
// first-error: model<typeformer::ETransformer<float, tiny>, needed<typeformer::DTransformer<float, tiny>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;
using bert = tf::ETransformer<float, tiny>;
using gpt = tf::DTransformer<float, tiny>;

void continue_prompt(const bert& model, tf::kv_cache<gpt>& cache, std::span<const tf::token> x,
                     tf::rng& gen) {
    auto y = tf::DInference(model, cache, x, 16, {}, gen);  // error here
    (void)y;
}
