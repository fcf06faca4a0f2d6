// Mistake: layer_norm's backward with means per row (d_e).
// The forward pass kept one mean per column (l_x).
// Fix: mean (l_x).
// fixed: const vec<float, d_e<32>>& mean => const vec<float, l_x<8>>& mean
// covers: layer_norm_backward(mean)
// expect: in::layer_norm_kernel_backward
// first-error: typeformer::mean_rows<typeformer::d_e<32, typeformer::rstd_rows<typeformer::l_x<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;

 void f(const mat<float, d_e<32>, l_x<8>>& dY, const mat<float, d_e<32>, l_x<8>>& X, const vec<float, d_e<32>>& gamma, const vec<float, d_e<32>>& mean, const vec<float, l_x<8>>& rstd, mat<float, d_e<32>, l_x<8>>& dX, vec<float, d_e<32>>& dgamma, vec<float, d_e<32>>& dbeta) {
     layer_norm_backward(dY, X, gamma, mean, rstd, dX, dgamma, dbeta);  // error here
 }
