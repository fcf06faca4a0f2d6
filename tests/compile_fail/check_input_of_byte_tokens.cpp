// Mistake: checking byte-level tokens as the input of a model with N_V = 64.
// check_input<Model> reports a sequence's status (length, ids < N_V); typed tokens carry their
// vocabulary, here N_V = 259, which is not the model's 64.
// Fix: tokens of the model's vocabulary, or untyped ids (checked at run time).
// fixed: tf::tokenize::tokens<tf::N_V<259>> => tf::tokenize::tokens<tf::N_V<64>>
// covers: check_input(x)
// expect: in::check_input
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

tf::status ok_to_run(const tf::tokenize::tokens<tf::N_V<259>>& x) {
    return tf::check_input<tf::DTransformer<float, tiny>>(x);  // error here
}
