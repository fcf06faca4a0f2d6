// Mistake: an Adam step of LoRA adapters with the moments of the gains and biases.
// adam_state<P> holds m and v of P's type: Adam's state exists only for what trains, so the state
// of one trainable part cannot serve another.
// Fix: adam_state<trainable<DTransformer<float, tiny>, train_lora<4>>>.
// fixed: adam_state<trainable<gpt, train_gains_biases>> => adam_state<adapters>
// covers: adam_step(state)
// expect: in::adam_step
// first-error: adam_state_of<typeformer::gains_biases<typeformer::DTransformer<float, tiny> >, model<typeformer::lora_adapters<
// clang-first-error: adam_state_of<typeformer::gains_biases<typeformer::DTransformer<float, tiny>>>, model<typeformer::lora_adapters<
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
using namespace typeformer;
using gpt = DTransformer<float, tiny>;
using adapters = trainable<gpt, train_lora<4>>;

void step(adapters& a, const adapters& grads, adam_state<trainable<gpt, train_gains_biases>>& st) {
    adam_step(a, grads, st);  // error here
}
