// Mistake: RMSnorm's ∂γ written into a vector per column (l_x).
// ∂γ has γ's d_e entries.
// Fix: dgamma (d_e).
// fixed: vec<float, l_x<8>>& dgamma => vec<float, d_e<32>>& dgamma
// covers: rms_norm_backward(dgamma)
// expect: in::rms_norm_kernel_backward
// first-error: typeformer::dgamma_rows<typeformer::l_x<8, typeformer::gamma_rows<typeformer::d_e<32
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;

 void f(const mat<float, d_e<32>, l_x<8>>& dY, const mat<float, d_e<32>, l_x<8>>& X, const vec<float, d_e<32>>& gamma, const vec<float, l_x<8>>& rstd, mat<float, d_e<32>, l_x<8>>& dX, vec<float, l_x<8>>& dgamma) {
     rms_norm_backward(dY, X, gamma, rstd, dX, dgamma);  // error here
 }
