// Mistake: printing the summary of a model held by a std::unique_ptr.
// summary lists the model's tensors with their named shapes (W_q (H·d_attn, d_e) = (2·16, 32), …);
// the unique_ptr holds the model.
// Fix: tf::summary(*model).
// fixed: tf::summary(model) => tf::summary(*model)
// covers: summary(model)
// expect: in::summary
// first-error: model<std::unique_ptr<typeformer::DTransformer<float, tiny>, needed<typeformer::DTransformer<float, tiny>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <memory>
#include <string>
#include <typeformer/io/summary.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

std::string describe(const std::unique_ptr<tf::DTransformer<float, tiny>>& model) {
    return tf::summary(model);  // error here
}
