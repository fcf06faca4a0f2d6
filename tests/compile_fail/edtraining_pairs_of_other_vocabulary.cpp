// Mistake: Algorithm 11 (EDTraining) on pairs of byte-level sequences for a model with N_V = 32.
// Each pair's z and x say their vocabulary (N_V = 259); the seq2seq model's W_e has 32 columns.
// This used to compile (the pairs were read as untyped ids) and train on whatever ids fit.
// Fix: train a model with N_V = 259, or tokenize both sides for 32 entries.
// fourteen: 7 EDTraining on a dataset of another vocabulary (compiled, trained with status ok)
// fixed: N_V = 32, => N_V = 259,
// covers: EDTraining(data model)
// expect: in::Algorithm_11_EDTraining
// first-error: tokens_of<typeformer::N_V<259>, model_N_V<typeformer::N_V<32>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <utility>
#include <vector>

#include <typeformer/tokenize/byte.hpp>

struct translator {
    static constexpr std::size_t N_V = 32, l_max = 16, L = 1, H = 2, d_e = 16, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};
namespace tf = typeformer;
using seq2seq = tf::EDTransformer<float, translator>;
using byte_tokens = tf::tokenize::tokens<tf::N_V<259>>;

void train(seq2seq& model, const std::vector<std::pair<byte_tokens, byte_tokens>>& pairs,
           tf::training_state<seq2seq>& st) {
    tf::EDTraining(model, pairs, {}, st);  // error here
}
