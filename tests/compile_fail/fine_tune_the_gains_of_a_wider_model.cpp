// Mistake: fine-tuning, over the tiny base, the gains and biases taken from a wider model.
// trainable<Model, S> holds Model's γ, β and biases: a wider model's have d_e = 64 entries, the
// base's layers 32, so the step would apply them to layers they do not fit.
// Fix: trainable<DTransformer<float, tiny>, train_gains_biases>, filled from this base by
// trainable_from(base, tr).
// fixed: float, wide> => float, tiny>
// covers: DTraining(tr)
// expect: in::Algorithm_13_DTraining
// first-error: typeformer::part_of<typeformer::DTransformer<float, wide, typeformer::model<typeformer::DTransformer<float, tiny, typeformer::first_difference<typeformer::d_e<64>, typeformer::d_e<32
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <vector>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
struct wide {  // the same GPT with a wider stream
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 64, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

tf::status fine_tune(const tf::DTransformer<float, tiny>& base, tf::trainable<tf::DTransformer<float, wide>, tf::train_gains_biases>& tr,
                     const std::vector<std::vector<tf::token>>& data,
                     tf::step_training_state<tf::DTransformer<float, tiny>, tf::train_gains_biases>& st) {
    return tf::DTraining(base, tr, data, {}, st);  // error here
}
