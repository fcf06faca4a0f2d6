// Mistake: ReLU's backward given the stream's gradient (d_e, l_x) as dy.
// dy is the gradient of ReLU's output (d_mlp, ℓ), the same shape as its input.
// Fix: the hidden layer's gradient (d_mlp, l_x).
// fixed: const mat<float, d_e<32>, l_x<8>>& dY => const mat<float, d_mlp<128>, l_x<8>>& dY
// covers: relu_backward(dy)
// expect: in::relu_backward
// first-error: typeformer::dY_rows<typeformer::d_e<32, typeformer::X_rows<typeformer::d_mlp<128
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;

 void f(const mat<float, d_mlp<128>, l_x<8>>& pre, const mat<float, d_e<32>, l_x<8>>& dY, mat<float, d_mlp<128>, l_x<8>>& d_pre) {
     relu_backward(pre, dY, d_pre);  // error here
 }
