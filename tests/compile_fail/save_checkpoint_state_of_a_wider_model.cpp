// Mistake: saving a checkpoint with the training state of a wider model.
// A checkpoint holds the parameters and Adam's moments m, v of one model; a training_state of a
// model with d_e = 64 has moments of other shapes than this model's parameters.
// Fix: training_state<DTransformer<float, tiny>>, the one the run trains with.
// fourteen: 10 save_checkpoint with the state of another model
// fixed: float, wide> => float, tiny>
// covers: io::save_checkpoint(st)
// expect: in::save_checkpoint
// first-error: typeformer::training_state_of<typeformer::DTransformer<float, wide, typeformer::model<typeformer::DTransformer<float, tiny, typeformer::first_difference<typeformer::d_e<64>, typeformer::d_e<32
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/io.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
struct wide {  // the same GPT with a wider stream
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 64, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

void keep(const tf::DTransformer<float, tiny>& model, const tf::training_state<tf::DTransformer<float, wide>>& st) {
    tf::io::save_checkpoint("run.ckpt", model, st, {});  // error here
}
