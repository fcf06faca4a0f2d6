// Mistake: LoRA adapters copied from the base model.
// trainable_from copies the base's values into a part that holds some of its parameters (gains and
// biases, the last layers); adapters are new parameters ΔW = (α/r)·B·A, which start from
// init_lora (B = 0, so the adapted model starts as the base).
// Fix: init_lora(adapters, seed).
// fixed: trainable_from(base, adapters); => (void)base; init_lora(adapters, 7);
// covers: trainable_from(tr)
// expect: in::trainable_from
// first-error: part_trains<typeformer::train_lora<4, (typeformer::lora_target)5, 4> >, needed<typeformer::init_lora_instead>
// clang-first-error: part_trains<typeformer::train_lora<4, 5>>, needed<typeformer::init_lora_instead>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
using namespace typeformer;
using gpt = DTransformer<float, tiny>;

void set_up(const gpt& base, trainable<gpt, train_lora<4>>& adapters) {
    trainable_from(base, adapters);  // error here
}
