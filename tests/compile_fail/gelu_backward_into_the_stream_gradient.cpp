// Mistake: GELU's backward written into the stream's gradient (d_e, l_x).
// GELU acts entry by entry on the pre-activation (d_mlp, ℓ): its input gradient has that shape.
// Fix: d_pre (d_mlp, l_x).
// fixed: mat<float, d_e<32>, l_x<8>>& d_pre => mat<float, d_mlp<128>, l_x<8>>& d_pre
// covers: gelu_backward(dx)
// expect: in::gelu_backward
// first-error: typeformer::dX_rows<typeformer::d_e<32, typeformer::X_rows<typeformer::d_mlp<128
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;

 void f(const mat<float, d_mlp<128>, l_x<8>>& pre, const mat<float, d_mlp<128>, l_x<8>>& d_act, mat<float, d_e<32>, l_x<8>>& d_pre) {
     gelu_backward(pre, d_act, d_pre);  // error here
 }
