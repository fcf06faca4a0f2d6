// Mistake: filling the masks of a byte-level sequence with a BERT of 64 tokens.
// fill_mask embeds x̃ with W_e (d_e, N_V = 64) and reads the mask token's id from the model's
// vocabulary; byte-level ids (and byte_level's mask, 256) are another vocabulary's.
// Fix: mask with the model's own tokenizer (tokenize::for_model<Model>).
// fixed: tf::tokenize::byte_level::encode("the cat") => tf::tokenize::tokens<tf::N_V<64>>::checked(std::vector<tf::token>{1, 2, 3})
// covers: fill_mask(x_tilde)
// expect: in::fill_mask
// first-error: typeformer::tokens_of<typeformer::N_V<259, typeformer::model_N_V<typeformer::N_V<64
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/tokenize/byte.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

std::vector<tf::masked_prediction> complete(const tf::ETransformer<float, tiny>& bert,
                                            tf::inference_workspace<tf::ETransformer<float, tiny>>& ws) {
    const auto x_tilde = tf::tokenize::byte_level::encode("the cat");  // tokens<N_V<259>>
    return tf::fill_mask(bert, x_tilde, 5, ws);  // error here
}
