// Mistake: loading a weights image into Adam's state instead of the model.
// The image names the model's tensors (W_e, ...); Adam's state holds moments m and v of the
// model's type inside it, not at its top.
// Fix: load_state(model, bytes); checkpoints (io/checkpoint.hpp) hold the moments.
// fixed: tf::adam_state<tf::DTransformer<float, tiny>>& st => tf::DTransformer<float, tiny>& st
// covers: io::load_state(model)
// expect: in::load_state
// first-error: model<typeformer::adam_state<typeformer::DTransformer<float, tiny>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <cstddef>
#include <typeformer/io.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

void from_memory(tf::adam_state<tf::DTransformer<float, tiny>>& st, std::span<const std::byte> bytes) {
    tf::io::load_state(st, bytes);  // error here
}
