// Mistake: importing nanoGPT's weights (status form) into an encoder–decoder model.
// nanoGPT is a decoder-only GPT (Algorithm 10); an EDTransformer (Algorithm 8) has an encoder and
// cross-attention that nanoGPT's file does not have.
// Fix: a DTransformer with nanoGPT's configuration.
// fixed: tf::EDTransformer<float, tiny>& model => tf::DTransformer<float, tiny>& model
// covers: io::try_import_nanogpt(model)
// expect: in::try_import_nanogpt
// first-error: model<typeformer::EDTransformer<float, tiny>, needed<typeformer::DTransformer<float, tiny>
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

auto from_nanogpt(tf::EDTransformer<float, tiny>& model) {
    return tf::io::try_import_nanogpt(model, "ckpt.safetensors");  // error here
}
