// Mistake: the gradient of LoRA adapters added into a gradient of the gains and biases.
// loss_and_grad(base, tr, x, grads, ws) adds ∇ with respect to tr into grads, which has tr's type:
// the adapters' gradient has the adapters' shapes, not those of the gains and biases.
// Fix: trainable<DTransformer<float, tiny>, train_lora<4>> for grads.
// fixed: trainable<gpt, train_gains_biases>& grads => trainable<gpt, train_lora<4>>& grads
// covers: loss_and_grad(grads tr)
// expect: in::loss_and_grad
// first-error: grads_train<typeformer::train_gains_biases>, part_trains<typeformer::train_lora<4
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
using namespace typeformer;
using gpt = DTransformer<float, tiny>;

float gradient(const gpt& base, const trainable<gpt, train_lora<4>>& adapters,
               std::span<const token> x, trainable<gpt, train_gains_biases>& grads,
               step_workspace<gpt, train_lora<4>>& ws) {
    return loss_and_grad(base, adapters, x, grads, ws);  // error here
}
