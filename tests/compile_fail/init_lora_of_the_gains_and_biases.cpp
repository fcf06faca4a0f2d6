// Mistake: init_lora on the gains and biases, which would overwrite every γ with noise.
// init_lora draws each adapter's A and zeroes its B (ΔW = (α/r)·B·A starts at 0); gains and
// biases are the model's own values, copied from the base by trainable_from.
// Fix: trainable_from(base, part) for the gains and biases; init_lora for train_lora's adapters.
// fixed: trainable<gpt, train_gains_biases> => trainable<gpt, train_lora<4>>
// covers: init_lora(ad)
// expect: in::init_lora
// first-error: part_trains<typeformer::train_gains_biases>, typeformer::needed<typeformer::lora_part_of_model>
// clang-first-error: part_trains<typeformer::train_gains_biases>, typeformer::needed<typeformer::lora_part_of_model>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
using namespace typeformer;
using gpt = DTransformer<float, tiny>;

void set_up(trainable<gpt, train_gains_biases>& part) {
    init_lora(part, 42);  // error here
}
