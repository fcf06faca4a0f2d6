// Mistake: fine-tuning the int8 model on the device: a training state for q8<Model>.
// int8 weights have no gradient here: training updates float weights (θ ← θ − η∇), and the int8
// form is computed from them afterwards (quantize).
// Fix: train the float model (training_state<Model>), then quantize(model, q).
// fixed: tf::training_state<tf::q8<tf::DTransformer<float, tiny>>> => tf::training_state<tf::DTransformer<float, tiny>>
// covers: training_state(Model)
// expect: in::training_state
// first-error: q8_of<typeformer::DTransformer<float, tiny>, needed<typeformer::DTransformer<float, tiny>
// max-lines: 10
// clang-max-lines: 13
// gallery: 29
#include <typeformer/typeformer.hpp>

#include <typeformer/models/quantized.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

tf::training_state<tf::q8<tf::DTransformer<float, tiny>>> st;  // error here
