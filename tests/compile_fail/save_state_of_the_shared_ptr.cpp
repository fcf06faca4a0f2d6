// Mistake: the file image of a model held by a std::shared_ptr.
// save_state writes the model's named tensors; the shared_ptr holds the model.
// Fix: save_state(*model).
// fixed: tf::io::save_state(model) => tf::io::save_state(*model)
// covers: io::save_state(model)
// expect: in::save_state
// first-error: model<std::shared_ptr<typeformer::DTransformer<float, tiny>, needed<typeformer::DTransformer<float, tiny>
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

auto image(const std::shared_ptr<tf::DTransformer<float, tiny>>& model) {
    return tf::io::save_state(model);  // error here
}
