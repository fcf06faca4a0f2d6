// Mistake: layer_norm's backward given the hidden layer's gradient as dY.
// ∂loss/∂Y has the norm's output shape (d_e, ℓ); the (d_mlp, ℓ) gradient belongs to the MLP.
// Fix: dY of the stream's shape (d_e, l_x).
// fixed: const hidden& dY => const stream& dY
// covers: nn::backward[layer_norm](dY)
// expect: in::Algorithm_6_layer_norm_backward
// first-error: typeformer::dY_rows<typeformer::d_mlp<128, typeformer::X_rows<typeformer::d_e<32
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using LN = nn::layer_norm<float, d_e<32>>;
using stream = mat<float, d_e<32>, l_x<8>>;
using hidden = mat<float, d_mlp<128>, l_x<8>>;

 void back(const LN& ln, const stream& X, const hidden& dY, stream& dX, LN& grads, const LN::cache<l_x<8>>& c) {
     nn::backward(ln, X, dY, dX, grads, c);  // error here
 }
