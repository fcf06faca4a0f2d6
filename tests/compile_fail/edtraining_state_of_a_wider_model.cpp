// Mistake: Algorithm 11 with the training state of a wider seq2seq model.
// training_state<Model> holds the moments and workspaces of one model: these are a model's with
// d_e = 32, this one has 16.
// Fix: training_state<EDTransformer<float, translator>>.
// fixed: float, wider> => float, translator>
// covers: EDTraining(st)
// expect: in::Algorithm_11_EDTraining
// first-error: typeformer::training_state_of<typeformer::EDTransformer<float, wider, typeformer::model<typeformer::EDTransformer<float, translator, typeformer::first_difference<typeformer::d_e<32>, typeformer::d_e<16
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <utility>
#include <vector>

struct translator {  // Algorithm 8: l_x and l_z both hold 8 tokens
    static constexpr std::size_t N_V = 32, l_max = 8, L = 1, H = 2, d_e = 16, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};
struct wider {  // the same seq2seq model with a wider stream
    static constexpr std::size_t N_V = 32, l_max = 8, L = 1, H = 2, d_e = 32, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};
namespace tf = typeformer;

using pair = std::pair<std::vector<tf::token>, std::vector<tf::token>>;
void train(tf::EDTransformer<float, translator>& model, const std::vector<pair>& data,
           tf::training_state<tf::EDTransformer<float, wider>>& st) {
    tf::EDTraining(model, data, {}, st);  // error here
}
