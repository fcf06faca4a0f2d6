// Mistake: the gradient's norm taken of the whole training state.
// ‖∇‖ is the L2 norm of the gradients, a struct of the model's type; the training state holds them
// with Adam's moments, the workspace and the counters.
// Fix: grad_norm(st.grads) (or clip in training_options).
// fixed: tf::grad_norm(st); => tf::grad_norm(st.grads);
// covers: grad_norm(g)
// expect: in::grad_norm
// first-error: model<typeformer::training_state<typeformer::DTransformer<float, tiny>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

double norm(const tf::training_state<tf::DTransformer<float, tiny>>& st) {
    return tf::grad_norm(st);  // error here
}
