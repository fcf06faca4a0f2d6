// Mistake: Algorithm 13 (DTraining) on a dataset of byte-level sequences for a model with N_V = 99.
// The sequences' type says their vocabulary (N_V = 259); the model's W_e has 99 columns.
// Fix: train a model with N_V = 259, or tokenize for 99 entries.
// fixed: N_V = 99, => N_V = 259,
// covers: DTraining(data model)
// expect: in::Algorithm_13_DTraining
// first-error: tokens_of<typeformer::N_V<259>, model_N_V<typeformer::N_V<99>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <vector>
#include <typeformer/tokenize/byte.hpp>

struct small_vocabulary {
    static constexpr std::size_t N_V = 99, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;
using model_t = tf::DTransformer<float, small_vocabulary>;
using byte_tokens = tf::tokenize::tokens<tf::N_V<259>>;

void train(model_t& model, const std::vector<byte_tokens>& data, tf::training_state<model_t>& st) {
    tf::DTraining(model, data, {}, st);  // error here
}
