// Mistake: resuming a run into a training state of a model with a longer context.
// A checkpoint holds the parameters and Adam's moments (m, v) of one model; a training_state of a
// model with l_max = 128 has W_p's moments over 128 positions, the model here has 32.
// Fix: a training_state<Model> of the model being loaded.
// fourteen: 10 load_checkpoint with the state of another model
// fixed: tf::training_state<tf::DTransformer<float, long_context>>& st => tf::training_state<tf::DTransformer<float, tiny>>& st
// covers: io::load_checkpoint(st model)
// expect: in::load_checkpoint
// first-error: training_state_of<typeformer::DTransformer<float, long_context>, model<typeformer::DTransformer<float, tiny>, first_difference<typeformer::l_max<128>, typeformer::l_max<32>
// max-lines: 9
// clang-max-lines: 7
// gallery: 27
#include <typeformer/typeformer.hpp>

#include <typeformer/io.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
struct long_context {
    static constexpr std::size_t N_V = 64, l_max = 128, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

void resume(tf::DTransformer<float, tiny>& model,
            tf::training_state<tf::DTransformer<float, long_context>>& st) {
    tf::load_checkpoint("run.ckpt", model, st);  // error here
}
