// Mistake: resuming (status form) into Adam's state where the whole training state is needed.
// A checkpoint restores the parameters, Adam's m and v, the step counters and the generator: a
// training_state<Model> holds all of them, adam_state only the moments.
// Fix: a training_state<Model>.
// fixed: tf::adam_state<gpt>& st => tf::training_state<gpt>& st
// covers: io::try_load_checkpoint(st model)
// expect: in::try_load_checkpoint
// first-error: adam_state_of<typeformer::DTransformer<float, tiny>, needed<typeformer::training_state<typeformer::DTransformer<float, tiny>
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

auto resume(gpt& model, tf::adam_state<gpt>& st) {
    return tf::io::try_load_checkpoint("run.ckpt", model, st);  // error here
}
