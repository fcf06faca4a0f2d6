// Mistake: loading a checkpoint's parameters for inference into a std::unique_ptr.
// try_load_checkpoint_model fills the model's tensors from the checkpoint; the pointer holds the
// model.
// Fix: try_load_checkpoint_model(path, *model).
// fixed: ("run.ckpt", model) => ("run.ckpt", *model)
// covers: io::try_load_checkpoint_model(model)
// expect: in::try_load_checkpoint_model
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

auto for_inference(std::unique_ptr<tf::DTransformer<float, tiny>>& model) {
    return tf::io::try_load_checkpoint_model("run.ckpt", model);  // error here
}
