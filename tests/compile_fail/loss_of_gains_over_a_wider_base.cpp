// Mistake: the loss of the trainable gains and biases over a wider base model.
// trainable<Model, S> holds Model's γ, β and biases; the base's frozen weights are another model's
// (d_e = 64), whose layers the part does not fit.
// Fix: the base the part was taken from (DTransformer<float, tiny>).
// fixed: float, wide> => float, tiny>
// covers: loss(base)
// expect: in::loss
// first-error: typeformer::part_of<typeformer::DTransformer<float, tiny, typeformer::model<typeformer::DTransformer<float, wide, typeformer::first_difference<typeformer::d_e<32>, typeformer::d_e<64
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

float fine_tune(const tf::DTransformer<float, wide>& base, const tf::trainable<tf::DTransformer<float, tiny>, tf::train_gains_biases>& tr, std::span<const tf::token> x,
                tf::step_workspace<tf::DTransformer<float, tiny>, tf::train_gains_biases>& ws) {
    return tf::loss(base, tr, x, ws);  // error here
}
