// Mistake: an in-place LoRA step with the workspace made for training gains and biases.
// step_workspace<Model, S> is laid out for the trainable part S: LoRA's holds its adapters' (r, ℓ)
// buffers, which a gains-and-biases workspace has not, so it serves only parts of its own S.
// Fix: step_workspace<DTransformer<float, tiny>, train_lora<4>>.
// fixed: step_workspace<gpt, train_gains_biases>& ws => step_workspace<gpt, train_lora<4>>& ws
// covers: sgd_step_in_place(ws tr)
// expect: in::sgd_step_in_place
// first-error: workspace_trains<typeformer::train_gains_biases>, part_trains<typeformer::train_lora<4
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
using namespace typeformer;
using gpt = DTransformer<float, tiny>;

float fine_tune(const gpt& base, trainable<gpt, train_lora<4>>& adapters,
                std::span<const token> x, step_workspace<gpt, train_gains_biases>& ws) {
    return sgd_step_in_place(base, adapters, x, 0.01f, ws);  // error here
}
