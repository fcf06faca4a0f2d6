// Mistake: layer_norm's 1/σ written into a vector over the context's positions.
// One 1/σ per column of X (l_x).
// Fix: rstd (l_x).
// fixed: vec<float, l_z<4>>& rstd => vec<float, l_x<4>>& rstd
// covers: layer_norm(rstd)
// expect: in::layer_norm_kernel
// first-error: typeformer::rstd_rows<typeformer::l_z<4, typeformer::X_cols<typeformer::l_x<4
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;

 void f(const mat<float, d_e<8>, l_x<4>>& X, const vec<float, d_e<8>>& gamma, const vec<float, d_e<8>>& beta, mat<float, d_e<8>, l_x<4>>& Y, vec<float, l_x<4>>& mean, vec<float, l_z<4>>& rstd) {
     layer_norm(X, gamma, beta, 1e-5f, Y, mean, rstd);  // error here
 }
