// Mistake: layer_norm over the decoder's stream (l_x) with the cache made for the context (l_z).
// The cache keeps the mean and 1/σ of each column for the backward pass: one per position of X, so
// a cache over l_z does not fit a stream over l_x, even of the same length.
// Fix: LN::cache<l_x<8>>, one per sequence the norm runs on.
// fixed: LN::cache<l_z<8>> => LN::cache<l_x<8>>
// covers: nn::forward[layer_norm](c)
// expect: in::Algorithm_6_layer_norm
// first-error: typeformer::cache_given<typeformer::nn::layer_norm<float, typeformer::d_e<32, ::cache<typeformer::l_z<8, typeformer::cache_expected<typeformer::nn::layer_norm<float, typeformer::d_e<32, ::cache<typeformer::l_x<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using LN = nn::layer_norm<float, d_e<32>>;
using stream = mat<float, d_e<32>, l_x<8>>;
using hidden = mat<float, d_mlp<128>, l_x<8>>;

 void norm(const LN& ln, const stream& X, stream& Y, LN::cache<l_z<8>>& c) {
     nn::forward(ln, X, Y, c, 1e-5f);  // error here
 }
