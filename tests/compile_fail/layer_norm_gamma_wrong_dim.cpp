// Mistake: layer norm of the residual stream (d_e, l_x) with scale and offset over d_mlp.
// Algorithm 6: X̂[:, t] = (X[:, t] − m)/√v ⊙ γ + β with γ, β ∈ R^{d_e}; these γ, β are the
// MLP width's (d_mlp = 32).
// expect: d_mlp<32>, d_e<8>, vector_matches_rows
// first-error: layer_norm, d_mlp<32>, d_e<8>
// max-lines: 20
#include <typeformer/kernels.hpp>

using namespace typeformer;

void norm(const mat<float, d_e<8>, l_x<4>>& X,   // (d_e, l_x)
          const vec<float, d_mlp<32>>& gamma,     // (d_mlp): should be (d_e)
          const vec<float, d_mlp<32>>& beta,      // (d_mlp): should be (d_e)
          mat<float, d_e<8>, l_x<4>>& Y,          // (d_e, l_x)
          vec<float, l_x<4>>& mean, vec<float, l_x<4>>& rstd) {  // (l_x)
    layer_norm(X, gamma, beta, 1e-5f, Y, mean, rstd);  // error here
}
