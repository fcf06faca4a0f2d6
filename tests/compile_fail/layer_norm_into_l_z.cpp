// Mistake: layer_norm's output written into a matrix over l_z.
// Y has X's shape (d_e, l_x).
// Fix: Y (d_e, l_x).
// fixed: mat<float, d_e<8>, l_z<4>>& Y => mat<float, d_e<8>, l_x<4>>& Y
// covers: layer_norm(y)
// expect: in::layer_norm_kernel
// first-error: typeformer::Y_cols<typeformer::l_z<4, typeformer::X_cols<typeformer::l_x<4
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;

 void f(const mat<float, d_e<8>, l_x<4>>& X, const vec<float, d_e<8>>& gamma, const vec<float, d_e<8>>& beta, mat<float, d_e<8>, l_z<4>>& Y, vec<float, l_x<4>>& mean, vec<float, l_x<4>>& rstd) {
     layer_norm(X, gamma, beta, 1e-5f, Y, mean, rstd);  // error here
 }
