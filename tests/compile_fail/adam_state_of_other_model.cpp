// Mistake: an Adam step with the moments of another model.
// adam_state<Model> holds m and v of the model's type; this one was made for a model with a longer
// context (l_max).
// Fix: adam_state<DTransformer<float, tiny>>.
// fixed: adam_state<DTransformer<float, long_context>> => adam_state<DTransformer<float, tiny>>
// covers: adam_step(state model)
// expect: in::adam_step
// first-error: adam_state_of<typeformer::DTransformer<float, long_context>, model<typeformer::DTransformer<float, tiny>, first_difference<typeformer::l_max<128>, typeformer::l_max<32>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT: d_attn = d_mid = 16
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};

struct long_context {
    static constexpr std::size_t N_V = 64, l_max = 128, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
using namespace typeformer;

void step(DTransformer<float, tiny>& model, const DTransformer<float, tiny>& grads,
          adam_state<DTransformer<float, long_context>>& state) {
    adam_step(model, grads, state);  // error here
}
