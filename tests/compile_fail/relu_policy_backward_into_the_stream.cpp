// Mistake: the ReLU policy's backward written into a (d_e, l_x) gradient.
// Entry-wise over the hidden (d_mlp, ℓ).
// Fix: dx (d_mlp, l_x).
// fixed: mat<float, d_e<32>, l_x<8>>& d_pre => mat<float, d_mlp<128>, l_x<8>>& d_pre
// covers: nn::relu::backward(dx)
// expect: in::relu_backward
// first-error: typeformer::dX_rows<typeformer::d_e<32, typeformer::X_rows<typeformer::d_mlp<128
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;

 void f(const mat<float, d_mlp<128>, l_x<8>>& pre, const mat<float, d_mlp<128>, l_x<8>>& d_act, mat<float, d_e<32>, l_x<8>>& d_pre) {
     nn::relu::backward(pre, d_act, d_pre);  // error here
 }
