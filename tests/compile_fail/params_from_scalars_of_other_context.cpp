// Mistake: a model built from the flat scalars of one with a longer context (l_max 64, not 32).
// params_from<Model>(flat) reads Model's leaves from parameter_count<Model> scalars in walk order;
// W_p of l_max 64 has 1,024 scalars more, so every leaf after it would be read from the wrong
// place. The flat array carries no signature, so its length is what the check can compare.
// Fix: the model the scalars were written from, or export it again (its header checks every
// dimension by name: exported_weights_of_other_heads).
// fourteen: 8 params_from across configurations (a flat array: its count; a header: every dimension, as 4)
// fixed: long_context_scalars[31616] => long_context_scalars[30592]
// covers: params_from(Model)
// expect: in::params_from
// first-error: model<typeformer::DTransformer<float, tiny> >, typeformer::flat_scalars<31616>, typeformer::model_scalars<30592>
// clang-first-error: model<typeformer::DTransformer<float, tiny>>, typeformer::flat_scalars<31616>, typeformer::model_scalars<30592>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
using gpt = typeformer::DTransformer<float, tiny>;

extern const float long_context_scalars[31616];  // written from l_max = 64

const gpt theta = typeformer::params_from<gpt>(long_context_scalars);  // error here
