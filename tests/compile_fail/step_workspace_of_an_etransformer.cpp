// Mistake: a step workspace for fine-tuning a BERT (an ETransformer) with adapters.
// train/step.hpp's step (in-place SGD, recomputed activations, the partial modes) is Algorithm 10's,
// a DTransformer's: its workspace is laid out for a unidirectional stack and next-token targets.
// Fix: ETraining with training_state<ETransformer<float, tiny>> (every parameter), or a DTransformer.
// fixed: using bert = tf::ETransformer<float, tiny>; => using bert = tf::DTransformer<float, tiny>;
// covers: step_workspace(Model)
// expect: in::step_workspace
// first-error: model<typeformer::ETransformer<float, tiny> >, needed<typeformer::DTransformer<float, tiny> >
// clang-first-error: model<typeformer::ETransformer<float, tiny>>, needed<typeformer::DTransformer<float, tiny>>
// max-lines: 11
// clang-max-lines: 14
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;
using bert = tf::ETransformer<float, tiny>;

tf::step_workspace<bert, tf::train_lora<4>> ws;  // error here
