// Mistake: LoRA adapters for a BERT (an ETransformer), named as the struct that holds them.
// lora_adapters<Model, S> is what trainable<Model, train_lora<r>> names for a DTransformer: the
// in-place step that trains them is Algorithm 13's.
// Fix: ETraining over the ETransformer, or trainable<DTransformer<float, tiny>, train_lora<4>>.
// fixed: lora_adapters<ETransformer<float, tiny>, train_lora<4>> => lora_adapters<DTransformer<float, tiny>, train_lora<4>>
// covers: lora_adapters(Model)
// expect: in::lora_adapters
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

lora_adapters<ETransformer<float, tiny>, train_lora<4>> adapters;  // error here
