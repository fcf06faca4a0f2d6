// Mistake: the byte-level tokenizer bound to a model whose vocabulary has 99 entries.
// for_model<Model>(tok) binds a tokenizer to Model's N_V so that its encode returns tokens typed
// with it; byte_level's vocabulary is a type (N_V<259>), so the sizes are compared when for_model is
// named, not when the program runs (a BPE's size is known only then: std::invalid_argument).
// Fix: a model with N_V = tokenize::byte_level::N_V, or a tokenizer with 99 entries.
// fixed: N_V = 99, => N_V = 259,
// covers: tokenize::for_model(tok Model)
// expect: in::for_model
// first-error: tokens_of<typeformer::N_V<259>, model_N_V<typeformer::N_V<99>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/tokenize/byte.hpp>
#include <typeformer/tokenize/tokens.hpp>

struct small_vocabulary {
    static constexpr std::size_t N_V = 99, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;
using model = tf::DTransformer<float, small_vocabulary>;

auto bind() {
    return tf::tokenize::for_model<model>(tf::tokenize::byte_level{});  // error here
}
