// Mistake: RMSnorm's backward given the hidden layer's gradient as dY.
// dY has Y's shape (d_e, l_x).
// Fix: dY (d_e, l_x).
// fixed: const mat<float, d_mlp<128>, l_x<8>>& dY => const mat<float, d_e<32>, l_x<8>>& dY
// covers: rms_norm_backward(dy)
// expect: in::rms_norm_kernel_backward
// first-error: typeformer::dY_rows<typeformer::d_mlp<128, typeformer::X_rows<typeformer::d_e<32
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;

 void f(const mat<float, d_mlp<128>, l_x<8>>& dY, const mat<float, d_e<32>, l_x<8>>& X, const vec<float, d_e<32>>& gamma, const vec<float, l_x<8>>& rstd, mat<float, d_e<32>, l_x<8>>& dX, vec<float, d_e<32>>& dgamma) {
     rms_norm_backward(dY, X, gamma, rstd, dX, dgamma);  // error here
 }
