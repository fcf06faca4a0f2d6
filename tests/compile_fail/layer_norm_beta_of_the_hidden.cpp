// Mistake: layer_norm's shift β taken from the MLP's (d_mlp) bias.
// β is added to each normalised column of X (d_e, ℓ): it has d_e entries.
// Fix: β (d_e).
// fixed: const vec<float, d_mlp<32>>& beta => const vec<float, d_e<8>>& beta
// covers: layer_norm(beta)
// expect: in::layer_norm_kernel
// first-error: typeformer::beta_rows<typeformer::d_mlp<32, typeformer::gamma_rows<typeformer::d_e<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;

 void f(const mat<float, d_e<8>, l_x<4>>& X, const vec<float, d_e<8>>& gamma, const vec<float, d_mlp<32>>& beta, mat<float, d_e<8>, l_x<4>>& Y, vec<float, l_x<4>>& mean, vec<float, l_x<4>>& rstd) {
     layer_norm(X, gamma, beta, 1e-5f, Y, mean, rstd);  // error here
 }
