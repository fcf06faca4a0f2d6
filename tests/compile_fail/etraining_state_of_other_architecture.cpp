// Mistake: Algorithm 12 (ETraining) with the training state of a DTransformer.
// training_state<Model> holds the model-typed gradient, Adam's moments and a training workspace; a
// BERT (ETransformer) needs its own.
// Fix: training_state<ETransformer<float, tiny>>.
// fixed: tf::training_state<tf::DTransformer<float, tiny>>& st => tf::training_state<tf::ETransformer<float, tiny>>& st
// covers: ETraining(st model)
// expect: in::Algorithm_12_ETraining
// first-error: training_state_of<typeformer::DTransformer<float, tiny>, model<typeformer::ETransformer<float, tiny>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT: d_attn = d_mid = 16
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};

#include <vector>
namespace tf = typeformer;

void pretrain(tf::ETransformer<float, tiny>& bert, const std::vector<std::vector<tf::token>>& data,
              tf::training_state<tf::DTransformer<float, tiny>>& st) {
    tf::ETraining(bert, data, {}, st);  // error here
}
