// Mistake: loading weights (status form) into a model held by a std::unique_ptr.
// try_load fills the model's named tensors from a safetensors file; the pointer holds the model.
// Fix: tf::io::try_load(*model, path).
// fixed: try_load(model, => try_load(*model,
// covers: io::try_load(model)
// expect: in::try_load
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

auto restore(std::unique_ptr<tf::DTransformer<float, tiny>>& model) {
    return tf::io::try_load(model, "tiny.safetensors");  // error here
}
