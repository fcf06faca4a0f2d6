// Mistake: fine-tuning the gains and biases of a BERT (an ETransformer) with partial training.
// The trainable parts and the in-place step are Algorithm 13's, over a DTransformer; the
// ETransformer's training (Algorithm 12, ETraining) trains every parameter.
// Fix: ETraining over the ETransformer, or the parts of a DTransformer<float, tiny>.
// fixed: gains_biases<ETransformer<float, tiny>> => gains_biases<DTransformer<float, tiny>>
// covers: gains_biases(Model)
// expect: in::gains_biases
// first-error: model<typeformer::ETransformer<float, tiny> >, typeformer::needed<typeformer::DTransformer<float, tiny> >
// clang-first-error: model<typeformer::ETransformer<float, tiny>>, typeformer::needed<typeformer::DTransformer<float, tiny>>
// max-lines: 12
// clang-max-lines: 15
#include <typeformer/typeformer.hpp>

struct tiny {
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16, d_f = 32;
};
using namespace typeformer;

gains_biases<ETransformer<float, tiny>> part;  // error here
