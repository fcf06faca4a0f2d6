// Mistake: Algorithm 6's backward accumulating into the gradient of an RMSnorm.
// The gradient of a block has the block's type: layer norm has γ and β, RMSnorm only γ, so ∂β has
// nowhere to go.
// Fix: a nn::layer_norm<float, d_e<32>> for the gradients.
// fixed: nn::rms_norm<float, d_e<32>>& grads => LN& grads
// covers: nn::backward[layer_norm](grads p)
// expect: in::Algorithm_6_layer_norm_backward
// first-error: grads<typeformer::nn::rms_norm<float, typeformer::d_e<32>, block<typeformer::nn::layer_norm<float, typeformer::d_e<32>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;
using LN = nn::layer_norm<float, d_e<32>>;
using stream = mat<float, d_e<32>, l_x<8>>;

void back(const LN& ln, const stream& X, const stream& dY, stream& dX,
          nn::rms_norm<float, d_e<32>>& grads, const LN::cache<l_x<8>>& c) {
    nn::backward(ln, X, dY, dX, grads, c);  // error here
}
