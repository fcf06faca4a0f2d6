// Mistake: the fmt summary (io::summary) of a model held by a std::unique_ptr.
// io::summary lists the model's tensors with their shapes and counts; the pointer holds the model.
// Fix: tf::io::summary(*model).
// fixed: tf::io::summary(model); => tf::io::summary(*model);
// covers: io::summary(model)
// expect: in::summary
// first-error: model<std::unique_ptr<typeformer::DTransformer<float, tiny>, needed<typeformer::DTransformer<float, tiny>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <memory>
#include <string>
#include <typeformer/io.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

std::string describe(const std::unique_ptr<tf::DTransformer<float, tiny>>& model) {
    return tf::io::summary(model);  // error here
}
