// Mistake: RMSnorm's 1/rms written into a vector per row (d_e).
// One 1/rms per column of X (l_x).
// Fix: rstd (l_x).
// fixed: vec<float, d_e<8>>& rstd => vec<float, l_x<4>>& rstd
// covers: rms_norm(rstd)
// expect: in::rms_norm_kernel
// first-error: typeformer::rstd_rows<typeformer::d_e<8, typeformer::X_cols<typeformer::l_x<4
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;

 void f(const mat<float, d_e<8>, l_x<4>>& X, const vec<float, d_e<8>>& gamma, mat<float, d_e<8>, l_x<4>>& Y, vec<float, d_e<8>>& rstd) {
     rms_norm(X, gamma, 1e-6f, Y, rstd);  // error here
 }
