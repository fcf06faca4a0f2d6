// Mistake: RMSnorm of the stream (d_e) with the scale of a norm over d_mlp.
// RMSnorm's γ multiplies each row of the normalised X (d_e, ℓ): one entry per row, d_e of them.
// Fix: the norm's own γ over d_e.
// fixed: const vec<float, d_mlp<128>>& gamma => const vec<float, d_e<32>>& gamma
// covers: rms_norm(gamma x)
// expect: in::rms_norm_kernel
// first-error: gamma_rows<typeformer::d_mlp<128>, X_rows<typeformer::d_e<32>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void norm(const mat<float, d_e<32>, l_x<8>>& X, const vec<float, d_mlp<128>>& gamma,
          mat<float, d_e<32>, l_x<8>>& Y, vec<float, l_x<8>>& rstd) {
    rms_norm(X, gamma, 1e-5f, Y, rstd);  // error here
}
