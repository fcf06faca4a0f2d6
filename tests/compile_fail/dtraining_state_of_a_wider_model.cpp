// Mistake: Algorithm 13 with the training state of a wider model.
// training_state<Model> holds the Adam moments and the per-worker workspaces of one model; a wider
// model's (d_e = 64) do not fit this one's parameters.
// Fix: training_state<DTransformer<float, tiny>>.
// fixed: float, wide> => float, tiny>
// covers: DTraining(st)
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

void train(tf::DTransformer<float, tiny>& model, const std::vector<std::vector<tf::token>>& data,
           tf::training_state<tf::DTransformer<float, wide>>& st) {
    tf::DTraining(model, data, {}, st);  // error here
}
