// Mistake: checkpointing a model with the training state of a wider model.
// A checkpoint holds the model's parameters and the state's Adam moments, which have the model's
// type; a wider model's m and v have other shapes.
// Fix: the training_state<Model> of this model.
// fixed: tf::training_state<tf::DTransformer<float, wide>>& st => tf::training_state<tf::DTransformer<float, tiny>>& st
// covers: io::try_save_checkpoint(st model)
// expect: in::try_save_checkpoint
// first-error: training_state_of<typeformer::DTransformer<float, wide>, model<typeformer::DTransformer<float, tiny>, first_difference<typeformer::d_e<64>, typeformer::d_e<32>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/io.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
struct wide {  // tiny with d_e = 64
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 64, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

auto keep(const tf::DTransformer<float, tiny>& model,
          const tf::training_state<tf::DTransformer<float, wide>>& st) {
    return tf::io::try_save_checkpoint("run.ckpt", model, st, {});  // error here
}
