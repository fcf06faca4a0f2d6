// Mistake: fill-mask asked of a GPT (a DTransformer) instead of a BERT (an ETransformer).
// Filling a masked position reads P[:, t] of Algorithm 9, whose attention sees both sides of t
// (Mask ≡ 1); a DTransformer's column t sees only x[1:t] (MaskΔ) and predicts x[t+1].
// Fix: an ETransformer of the same configuration, trained with ETraining (Algorithm 12).
// fixed: using gpt = tf::DTransformer<float, tiny>; => using gpt = tf::ETransformer<float, tiny>;
// covers: fill_mask(model)
// expect: in::fill_mask
// first-error: model<typeformer::DTransformer<float, tiny>, needed<typeformer::ETransformer<float, tiny>
// max-lines: 9
// clang-max-lines: 7
// gallery: 21
#include <typeformer/typeformer.hpp>

struct tiny {
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;
using gpt = tf::DTransformer<float, tiny>;

void complete(const gpt& model, std::span<const tf::token> x_tilde,
              tf::inference_workspace<gpt>& ws) {
    auto top = tf::fill_mask(model, x_tilde, 5, ws);  // error here
    (void)top;
}
