// Mistake: the MLP over the decoder's stream with the cache made for the context.
// The cache keeps the hidden activations (d_mlp, ℓ) of each position of X for the backward pass:
// l_x here, l_z in the cache.
// Fix: MLP::cache<l_x<8>>.
// fixed: MLP::cache<l_z<8>> => MLP::cache<l_x<8>>
// covers: nn::forward[mlp](c)
// expect: in::MLP
// first-error: typeformer::cache_given<typeformer::nn::mlp<float, typeformer::d_e<16>, typeformer::d_mlp<64>, typeformer::nn::relu>::cache<typeformer::l_z<8, typeformer::cache_expected<typeformer::nn::mlp<float, typeformer::d_e<16>, typeformer::d_mlp<64>, typeformer::nn::relu>::cache<typeformer::l_x<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using MLP = nn::mlp<float, d_e<16>, d_mlp<64>, nn::relu>;
using stream = mat<float, d_e<16>, l_x<8>>;
using hidden = mat<float, d_mlp<64>, l_x<8>>;

 void block(const MLP& p, const stream& X, stream& Y, MLP::cache<l_z<8>>& c) {
     nn::forward(p, X, Y, c);  // error here
 }
