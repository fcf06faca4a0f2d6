// Mistake: checkpointing the training workspace in the model's place.
// A checkpoint holds the model's parameters and its training state; the workspace holds
// activations, recomputed by the next forward pass.
// Fix: save_checkpoint(path, model, st, opt).
// fixed: const tf::training_workspace<gpt>& ws => const gpt& ws
// covers: io::save_checkpoint(model)
// expect: in::save_checkpoint
// first-error: model<typeformer::workspace<typeformer::DTransformer<float, tiny>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/io.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;
using gpt = tf::DTransformer<float, tiny>;

void keep(const tf::training_workspace<gpt>& ws, const tf::training_state<gpt>& st) {
    tf::save_checkpoint("run.ckpt", ws, st, {});  // error here
}
