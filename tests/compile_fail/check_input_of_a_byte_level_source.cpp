// Mistake: checking a seq2seq model's input pair with a byte-level context (N_V = 259).
// check_input<Model>(z, x) checks ids < N_V at run time for untyped spans; typed byte-level tokens
// of another vocabulary are a type error.
// Fix: tokenize z with tokenize::for_model<Model>.
// fixed: tf::tokenize::byte_level::encode("bonjour") => tf::tokenize::tokens<tf::N_V<32>>::checked(std::vector<tf::token>{1, 2, 3})
// covers: check_input(z)
// expect: in::check_input
// first-error: tokens_of<typeformer::N_V<259>, model_N_V<typeformer::N_V<32>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/tokenize/byte.hpp>

struct translator {  // Algorithm 8: l_x and l_z both hold 8 tokens
    static constexpr std::size_t N_V = 32, l_max = 8, L = 1, H = 2, d_e = 16, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};
namespace tf = typeformer;

tf::status valid(std::span<const tf::token> x) {
    const auto z = tf::tokenize::byte_level::encode("bonjour");  // tokens<N_V<259>>
    return tf::check_input<tf::EDTransformer<float, translator>>(z, x);  // error here
}
