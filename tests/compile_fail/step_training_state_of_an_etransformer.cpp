// Mistake: a DTraining state over a step workspace for a BERT (an ETransformer).
// step_training_state runs Algorithm 13 over train/step.hpp's step, which is a DTransformer's
// (Algorithm 10): an ETransformer trains with Algorithm 12 (ETraining) and training_state.
// Fix: training_state<ETransformer<float, tiny>> with ETraining, or a DTransformer.
// fixed: using bert = tf::ETransformer<float, tiny>; => using bert = tf::DTransformer<float, tiny>;
// covers: step_training_state(Model)
// expect: in::step_training_state
// first-error: model<typeformer::ETransformer<float, tiny> >, needed<typeformer::DTransformer<float, tiny> >
// clang-first-error: model<typeformer::ETransformer<float, tiny>>, needed<typeformer::DTransformer<float, tiny>>
// max-lines: 9
// clang-max-lines: 12
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;
using bert = tf::ETransformer<float, tiny>;

tf::step_training_state<bert, tf::train_gains_biases> st;  // error here
