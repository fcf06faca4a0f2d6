// Mistake: the MLP's GELU policy backward given the stream's gradient as dy.
// nn::gelu::backward(x, dy, dx) is entry-wise over the hidden (d_mlp, ℓ).
// Fix: dy (d_mlp, l_x).
// fixed: const mat<float, d_e<32>, l_x<8>>& dY => const mat<float, d_mlp<128>, l_x<8>>& dY
// covers: nn::gelu::backward(dy)
// expect: in::gelu_backward
// first-error: typeformer::dY_rows<typeformer::d_e<32, typeformer::X_rows<typeformer::d_mlp<128
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;

 void f(const mat<float, d_mlp<128>, l_x<8>>& pre, const mat<float, d_e<32>, l_x<8>>& dY, mat<float, d_mlp<128>, l_x<8>>& d_pre) {
     nn::gelu::backward(pre, dY, d_pre);  // error here
 }
