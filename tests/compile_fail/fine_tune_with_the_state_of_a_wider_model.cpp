// Mistake: fine-tuning the gains and biases with the training state of a wider model.
// step_training_state<Model, S> holds the step workspace and optimiser state of one model's part
// S; one made for a model with d_e = 64 does not fit this base's layers or its part.
// Fix: step_training_state<DTransformer<float, tiny>, train_gains_biases>, made for the base being
// fine-tuned.
// fourteen: 2 fine-tuning with the training state of another model
// fixed: float, wide> => float, tiny>
// covers: DTraining(st base)
// expect: in::Algorithm_13_DTraining
// first-error: typeformer::training_state_of<typeformer::DTransformer<float, wide, typeformer::model<typeformer::DTransformer<float, tiny, typeformer::first_difference<typeformer::d_e<64>, typeformer::d_e<32
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

tf::status fine_tune(const tf::DTransformer<float, tiny>& base, tf::trainable<tf::DTransformer<float, tiny>, tf::train_gains_biases>& tr,
                     const std::vector<std::vector<tf::token>>& data,
                     tf::step_training_state<tf::DTransformer<float, wide>, tf::train_gains_biases>& st) {
    return tf::DTraining(base, tr, data, {}, st);  // error here
}
