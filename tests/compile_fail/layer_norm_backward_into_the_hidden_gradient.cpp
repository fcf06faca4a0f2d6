// Mistake: layer_norm's input gradient written into the hidden layer's gradient buffer.
// ∂loss/∂X has X's shape (d_e, ℓ), not (d_mlp, ℓ).
// Fix: dX of the stream's shape.
// fixed: hidden& dX => stream& dX
// covers: nn::backward[layer_norm](dX)
// expect: in::Algorithm_6_layer_norm_backward
// first-error: typeformer::dX_rows<typeformer::d_mlp<128, typeformer::X_rows<typeformer::d_e<32
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using LN = nn::layer_norm<float, d_e<32>>;
using stream = mat<float, d_e<32>, l_x<8>>;
using hidden = mat<float, d_mlp<128>, l_x<8>>;

 void back(const LN& ln, const stream& X, const stream& dY, hidden& dX, LN& grads, const LN::cache<l_x<8>>& c) {
     nn::backward(ln, X, dY, dX, grads, c);  // error here
 }
