// Mistake: loading weights through a raw pointer to the model.
// load fills the model's named tensors; the pointer holds the model's address.
// Fix: tf::load(*model, path).
// fixed: tf::load(model, => tf::load(*model,
// covers: io::load(model)
// expect: in::load
// first-error: model<typeformer::DTransformer<float, tiny>*, needed<typeformer::DTransformer<float, tiny>
// max-lines: 9
// clang-max-lines: 7
// clang-first-error: model<typeformer::DTransformer<float, tiny> *>, needed<typeformer::DTransformer<float, tiny>
#include <typeformer/typeformer.hpp>

#include <typeformer/io.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

void restore(tf::DTransformer<float, tiny>* model) {
    tf::load(model, "tiny.safetensors");  // error here
}
