// Mistake: layer_norm's backward with the 1/σ of the context (l_z).
// One 1/σ per column of X (l_x).
// Fix: rstd (l_x).
// fixed: const vec<float, l_z<8>>& rstd => const vec<float, l_x<8>>& rstd
// covers: layer_norm_backward(rstd)
// expect: in::layer_norm_kernel_backward
// first-error: typeformer::rstd_rows<typeformer::l_z<8, typeformer::X_cols<typeformer::l_x<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;

 void f(const mat<float, d_e<32>, l_x<8>>& dY, const mat<float, d_e<32>, l_x<8>>& X, const vec<float, d_e<32>>& gamma, const vec<float, l_x<8>>& mean, const vec<float, l_z<8>>& rstd, mat<float, d_e<32>, l_x<8>>& dX, vec<float, d_e<32>>& dgamma, vec<float, d_e<32>>& dbeta) {
     layer_norm_backward(dY, X, gamma, mean, rstd, dX, dgamma, dbeta);  // error here
 }
