// Mistake: LoRA adapters over the int8 model, to fine-tune on the device what it runs (QLoRA).
// trainable<Model, S> is a part of a model Algorithm 13 trains: a DTransformer in float or
// double. q8<Model> is for inference; its int8 weights have no gradient here.
// Fix: trainable<DTransformer<float, tiny>, train_lora<4>> over the float model, then
// apply_trainable and quantize.
// fixed: trainable<q8<DTransformer<float, tiny>>, train_lora<4>> => trainable<DTransformer<float, tiny>, train_lora<4>>
// covers: trainable(Model)
// expect: in::trainable
// first-error: q8_of<typeformer::DTransformer<float, tiny> >, typeformer::needed<typeformer::DTransformer<float, tiny> >
// clang-first-error: q8_of<typeformer::DTransformer<float, tiny>>, typeformer::needed<typeformer::DTransformer<float, tiny>>
// max-lines: 11
// clang-max-lines: 18
#include <typeformer/typeformer.hpp>

#include <typeformer/models/quantized.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
using namespace typeformer;

trainable<q8<DTransformer<float, tiny>>, train_lora<4>> adapters;  // error here
