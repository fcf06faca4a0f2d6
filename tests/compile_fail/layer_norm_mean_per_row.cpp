// Mistake: layer_norm's means written into a vector per row (d_e) instead of per column.
// Algorithm 6 normalises each column of X: one mean and one 1/σ per position (l_x).
// Fix: mean (l_x).
// fixed: vec<float, d_e<8>>& mean => vec<float, l_x<4>>& mean
// covers: layer_norm(mean)
// expect: in::layer_norm_kernel
// first-error: typeformer::mean_rows<typeformer::d_e<8, typeformer::rstd_rows<typeformer::l_x<4
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;

 void f(const mat<float, d_e<8>, l_x<4>>& X, const vec<float, d_e<8>>& gamma, const vec<float, d_e<8>>& beta, mat<float, d_e<8>, l_x<4>>& Y, vec<float, d_e<8>>& mean, vec<float, l_x<4>>& rstd) {
     layer_norm(X, gamma, beta, 1e-5f, Y, mean, rstd);  // error here
 }
