// Mistake: an Adam step with the gradients of a wider model.
// adam_step updates each parameter θ from its gradient ∇θ and moments m, v: all three have the
// model's shapes, and gradients of a model with d_e = 64 do not.
// Fix: grads of type DTransformer<float, tiny> (the model's own type).
// fixed: float, wide> => float, tiny>
// covers: adam_step(grads)
// expect: in::adam_step
// first-error: typeformer::grads<typeformer::DTransformer<float, wide, typeformer::model<typeformer::DTransformer<float, tiny, typeformer::first_difference<typeformer::d_e<64>, typeformer::d_e<32
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
struct wide {  // the same GPT with a wider stream
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 64, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

void step(tf::DTransformer<float, tiny>& model, const tf::DTransformer<float, wide>& grads,
          tf::adam_state<tf::DTransformer<float, tiny>>& state) {
    tf::adam_step(model, grads, state);  // error here
}
