// Mistake: the checked fill-mask of a byte-level sequence with a BERT of 64 tokens.
// x̃ is embedded with W_e (d_e, N_V = 64); byte-level ids go up to 258.
// Fix: mask with tokenize::for_model<Model>.
// fixed: tf::tokenize::byte_level::encode("the cat") => tf::tokenize::tokens<tf::N_V<64>>::checked(std::vector<tf::token>{1, 2, 3})
// covers: try_fill_mask(x_tilde)
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

using bert = tf::ETransformer<float, tiny>;
tf::status complete(const bert& model, tf::inference_workspace<bert>& ws,
                    tf::sampling_scratch<float, 64>& scratch, std::span<std::size_t> positions,
                    std::span<tf::token> top, std::size_t& n) {
    const auto x_tilde = tf::tokenize::byte_level::encode("the cat");  // tokens<N_V<259>>
    return tf::try_fill_mask(model, x_tilde, 5, ws, scratch, positions, top, n);  // error here
}
