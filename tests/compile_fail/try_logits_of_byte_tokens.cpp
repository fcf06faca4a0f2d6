// Mistake: the checked logits of byte-level tokens from a model whose vocabulary has 64 entries.
// try_logits reports an id ≥ N_V at run time for an untyped span, but byte_level's tokens carry
// their vocabulary (N_V = 259) in their type, and it is not the model's.
// Fix: tokens of the model's vocabulary (tokenize::for_model<Model>), or a model with N_V = 259.
// fixed: tf::tokenize::byte_level::encode("hello") => tf::tokenize::tokens<tf::N_V<64>>::checked(std::vector<tf::token>{1, 2, 3})
// covers: try_logits(x)
// expect: in::try_logits
// first-error: tokens_of<typeformer::N_V<259>, model_N_V<typeformer::N_V<64>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/tokenize/byte.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

tf::status score(const tf::DTransformer<float, tiny>& model, tf::inference_workspace<tf::DTransformer<float, tiny>>& ws) {
    const auto x = tf::tokenize::byte_level::encode("hello");  // tokens<N_V<259>>
    return tf::try_logits(model, x, ws);  // error here
}
