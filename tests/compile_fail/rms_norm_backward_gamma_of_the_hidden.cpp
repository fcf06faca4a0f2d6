// Mistake: RMSnorm's backward with γ of the MLP's width.
// γ has d_e entries.
// Fix: γ (d_e).
// fixed: const vec<float, d_mlp<128>>& gamma => const vec<float, d_e<32>>& gamma
// covers: rms_norm_backward(gamma)
// expect: in::rms_norm_kernel_backward
// first-error: typeformer::gamma_rows<typeformer::d_mlp<128, typeformer::X_rows<typeformer::d_e<32
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;

 void f(const mat<float, d_e<32>, l_x<8>>& dY, const mat<float, d_e<32>, l_x<8>>& X, const vec<float, d_mlp<128>>& gamma, const vec<float, l_x<8>>& rstd, mat<float, d_e<32>, l_x<8>>& dX, vec<float, d_e<32>>& dgamma) {
     rms_norm_backward(dY, X, gamma, rstd, dX, dgamma);  // error here
 }
