// Mistake: RMSnorm's output written into a matrix over l_z.
// Y has X's shape (d, l_x).
// Fix: Y (d_e, l_x).
// fixed: mat<float, d_e<8>, l_z<4>>& Y => mat<float, d_e<8>, l_x<4>>& Y
// covers: rms_norm(y)
// expect: in::rms_norm_kernel
// first-error: typeformer::Y_cols<typeformer::l_z<4, typeformer::X_cols<typeformer::l_x<4
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;

 void f(const mat<float, d_e<8>, l_x<4>>& X, const vec<float, d_e<8>>& gamma, mat<float, d_e<8>, l_z<4>>& Y, vec<float, l_x<4>>& rstd) {
     rms_norm(X, gamma, 1e-6f, Y, rstd);  // error here
 }
