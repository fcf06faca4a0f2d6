// Mistake: layer_norm's input gradient written into a (d_mlp, l_x) buffer.
// dX has X's shape (d_e, l_x).
// Fix: dX (d_e, l_x).
// fixed: mat<float, d_mlp<128>, l_x<8>>& dX => mat<float, d_e<32>, l_x<8>>& dX
// covers: layer_norm_backward(dx)
// expect: in::layer_norm_kernel_backward
// first-error: typeformer::dX_rows<typeformer::d_mlp<128, typeformer::X_rows<typeformer::d_e<32
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;

 void f(const mat<float, d_e<32>, l_x<8>>& dY, const mat<float, d_e<32>, l_x<8>>& X, const vec<float, d_e<32>>& gamma, const vec<float, l_x<8>>& mean, const vec<float, l_x<8>>& rstd, mat<float, d_mlp<128>, l_x<8>>& dX, vec<float, d_e<32>>& dgamma, vec<float, d_e<32>>& dbeta) {
     layer_norm_backward(dY, X, gamma, mean, rstd, dX, dgamma, dbeta);  // error here
 }
