// Mistake: clipping Adam's moments where the gradients were meant.
// Clipping rescales ∇ before the update; Adam's state (m, v, step) is no struct of parameters
// itself.
// Fix: clip_grad_norm(grads, c).
// fixed: tf::adam_state<tf::DTransformer<float, tiny>>& st => tf::DTransformer<float, tiny>& st
// covers: clip_grad_norm(g)
// expect: in::clip_grad_norm
// first-error: model<typeformer::adam_state<typeformer::DTransformer<float, tiny>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

double clip(tf::adam_state<tf::DTransformer<float, tiny>>& st) {
    return tf::clip_grad_norm(st, 1.0);  // error here
}
