// Mistake: layer_norm's backward pass given the MLP's hidden activations as X.
// The backward of Algorithm 6 reads the X it normalised (d_e, ℓ) with the cached mean and 1/σ; the
// hidden activations (d_mlp, ℓ) are another tensor.
// Fix: the norm's own input X (d_e, l_x).
// fixed: const hidden& X => const stream& X
// covers: nn::backward[layer_norm](X)
// expect: in::Algorithm_6_layer_norm_backward
// first-error: typeformer::X_rows<typeformer::d_mlp<128, typeformer::gamma_rows<typeformer::d_e<32
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using LN = nn::layer_norm<float, d_e<32>>;
using stream = mat<float, d_e<32>, l_x<8>>;
using hidden = mat<float, d_mlp<128>, l_x<8>>;

 void back(const LN& ln, const hidden& X, const stream& dY, stream& dX, LN& grads, const LN::cache<l_x<8>>& c) {
     nn::backward(ln, X, dY, dX, grads, c);  // error here
 }
