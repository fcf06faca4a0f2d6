// Mistake: RMSnorm's gradient accumulated into a layer_norm's gradients.
// RMSnorm has γ only; layer_norm has γ and β: a gradient of the one is not a gradient of the
// other.
// Fix: grads of the block's own type (nn::rms_norm<float, d_e<16>>).
// fixed: nn::layer_norm<float, d_e<16>>& grads => norm& grads
// covers: nn::backward[rms_norm](grads)
// expect: in::RMSnorm_backward
// first-error: typeformer::grads<typeformer::nn::layer_norm<float, typeformer::d_e<16, typeformer::block<typeformer::nn::rms_norm<float, typeformer::d_e<16
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using norm = nn::rms_norm<float, d_e<16>>;
using stream = mat<float, d_e<16>, l_x<8>>;

 void back(const norm& p, const stream& X, const stream& dY, stream& dX, nn::layer_norm<float, d_e<16>>& grads,
           const norm::cache<l_x<8>>& c) {
     nn::backward(p, X, dY, dX, grads, c);  // error here
 }
