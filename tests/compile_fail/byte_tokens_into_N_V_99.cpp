// Mistake: byte-level tokens fed to a model whose vocabulary has 99 entries.
// tokenize::byte_level has N_V = 259 (256 bytes and mask, bos, eos) and its encode returns
// tokens<N_V<259>>: the vocabulary is in the type. A model with N_V = 99 would read ids ≥ 99 as
// columns of W_e that do not exist, and its special tokens are 96..98, not 256..258.
// Fix: a model with N_V = tokenize::byte_level::N_V, or a tokenizer with 99 entries.
// gallery: 17
// fixed: N_V = 99, => N_V = 259,
// covers: forward(x model)
// expect: in::forward
// first-error: tokens_of<typeformer::N_V<259>, model_N_V<typeformer::N_V<99>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/tokenize/byte.hpp>

struct small_vocabulary {
    static constexpr std::size_t N_V = 99, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

void predict(const tf::DTransformer<float, small_vocabulary>& model) {
    const auto x = tf::tokenize::byte_level::encode("hello");  // tokens<N_V<259>>
    auto P = tf::forward(model, x);  // error here
    (void)P;
}
