// Mistake: the layer-norm kernel on the residual stream (d_e, l_x) with scale and offset over d_mlp.
// Algorithm 6: ê = (e − m)/√v ⊙ γ + β with γ, β ∈ R^{d_e}; these γ, β are the MLP width's (d_mlp).
// Fix: the stream's own γ, β (vec<float, d_e<8>>).
// fixed: const vec<float, d_mlp<32>>& gamma => const vec<float, d_e<8>>& gamma
// fixed: const vec<float, d_mlp<32>>& beta => const vec<float, d_e<8>>& beta
// covers: layer_norm(gamma x)
// expect: in::layer_norm_kernel
// first-error: gamma_rows<typeformer::d_mlp<32>, X_rows<typeformer::d_e<8>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void norm(const mat<float, d_e<8>, l_x<4>>& X,   // (d_e, l_x)
          const vec<float, d_mlp<32>>& gamma,     // (d_mlp): should be (d_e)
          const vec<float, d_mlp<32>>& beta,      // (d_mlp): should be (d_e)
          mat<float, d_e<8>, l_x<4>>& Y,          // (d_e, l_x)
          vec<float, l_x<4>>& mean, vec<float, l_x<4>>& rstd) {  // (l_x)
    layer_norm(X, gamma, beta, 1e-5f, Y, mean, rstd);  // error here
}
