// Mistake: importing nanoGPT's weights into a BERT (an ETransformer).
// nanoGPT's GPT is pre-norm and causal (Algorithm 10); an ETransformer is post-norm with W_f
// (Algorithm 9).
// Fix: a DTransformer.
// fixed: tf::ETransformer<float, tiny>& bert => tf::DTransformer<float, tiny>& bert
// covers: io::import_nanogpt(model)
// expect: in::import_nanogpt
// first-error: model<typeformer::ETransformer<float, tiny>, needed<typeformer::DTransformer<float, tiny>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/io.hpp>
#include <typeformer/io/import.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

void from_nanogpt(tf::ETransformer<float, tiny>& bert) {
    tf::io::import_nanogpt(bert, "ckpt.safetensors");  // error here
}
