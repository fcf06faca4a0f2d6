// Mistake: layer_norm's backward with the cache of the context's norm (l_z).
// The cached mean and 1/σ are one per column of the X that was normalised: l_x here, l_z in that
// cache.
// Fix: the cache the forward pass over this X filled (LN::cache<l_x<8>>).
// fixed: LN::cache<l_z<8>> => LN::cache<l_x<8>>
// covers: nn::backward[layer_norm](c)
// expect: in::Algorithm_6_layer_norm_backward
// first-error: typeformer::cache_given<typeformer::nn::layer_norm<float, typeformer::d_e<32, ::cache<typeformer::l_z<8, typeformer::cache_expected<typeformer::nn::layer_norm<float, typeformer::d_e<32, ::cache<typeformer::l_x<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using LN = nn::layer_norm<float, d_e<32>>;
using stream = mat<float, d_e<32>, l_x<8>>;
using hidden = mat<float, d_mlp<128>, l_x<8>>;

 void back(const LN& ln, const stream& X, const stream& dY, stream& dX, LN& grads, const LN::cache<l_z<8>>& c) {
     nn::backward(ln, X, dY, dX, grads, c);  // error here
 }
