// Mistake: saving a model held by a std::unique_ptr without dereferencing it.
// save writes the model's named tensors to safetensors; the unique_ptr holds the model, it is not
// one.
// Fix: tf::save(*model, path).
// fixed: tf::save(model, => tf::save(*model,
// covers: io::save(model)
// expect: in::save
// first-error: model<std::unique_ptr<typeformer::DTransformer<float, tiny>, needed<typeformer::DTransformer<float, tiny>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <memory>
#include <typeformer/io.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

void keep(const std::unique_ptr<tf::DTransformer<float, tiny>>& model) {
    tf::save(model, "tiny.safetensors");  // error here
}
