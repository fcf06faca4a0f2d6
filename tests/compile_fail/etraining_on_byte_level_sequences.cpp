// Mistake: Algorithm 12 (BERT pre-training) on byte-level sequences for a model of 64 tokens.
// Each sequence is masked and embedded with W_e (d_e, N_V = 64): byte-level ids go up to 258, and
// their mask token is 256.
// Fix: a dataset of the model's vocabulary (tokenize::for_model<Model>), or a model with N_V = 259.
// fixed: tf::tokenize::tokens<tf::N_V<259>> => tf::tokenize::tokens<tf::N_V<64>>
// covers: ETraining(data)
// expect: in::Algorithm_12_ETraining
// first-error: typeformer::tokens_of<typeformer::N_V<259, typeformer::model_N_V<typeformer::N_V<64
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/tokenize/byte.hpp>
#include <vector>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

using byte_tokens = tf::tokenize::tokens<tf::N_V<259>>;
void pretrain(tf::ETransformer<float, tiny>& bert, const std::vector<byte_tokens>& data,
              tf::training_state<tf::ETransformer<float, tiny>>& st) {
    tf::ETraining(bert, data, {}, st);  // error here
}
