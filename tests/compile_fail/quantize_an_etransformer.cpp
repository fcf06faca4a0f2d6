// Mistake: quantizing a BERT (an ETransformer) into the int8 form of a GPT of the same config.
// quantize(m, q) writes the int8 form of a DTransformer<float, cfg>: an ETransformer's layers are
// post-norm and it has W_f, so its weights have no place in that q.
// Fix: quantize a DTransformer<float, small>; keep the ETransformer in float.
// fixed: const tf::ETransformer<float, small>& model => const tf::DTransformer<float, small>& model
// covers: quantize(m)
// expect: in::quantize
// first-error: model<typeformer::ETransformer<float, small>, needed<typeformer::DTransformer<float, small>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/models/quantized.hpp>

struct small {
    static constexpr std::size_t N_V = 32, l_max = 32, L = 1, H = 2, d_e = 16, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};
namespace tf = typeformer;

void to_int8(const tf::ETransformer<float, small>& model,
             tf::q8<tf::DTransformer<float, small>>& q) {
    tf::quantize(model, q);  // error here
}
