// Mistake: the MLP's output written into its hidden buffer (d_mlp, l_x).
// The MLP maps X (d_e, ℓ) through W_mlp1 (d_mlp, d_e) and W_mlp2 (d_e, d_mlp) back to (d_e, ℓ);
// the hidden (d_mlp, ℓ) is its cache's.
// Fix: an output of the stream's shape (d_e, l_x).
// fixed: hidden& Y => stream& Y
// covers: nn::forward[mlp](Y)
// expect: in::MLP
// first-error: typeformer::Y_rows<typeformer::d_mlp<64, typeformer::W_2_rows<typeformer::d_e<16
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using MLP = nn::mlp<float, d_e<16>, d_mlp<64>, nn::relu>;
using stream = mat<float, d_e<16>, l_x<8>>;
using hidden = mat<float, d_mlp<64>, l_x<8>>;

 void block(const MLP& p, const stream& X, hidden& Y, MLP::cache<l_x<8>>& c) {
     nn::forward(p, X, Y, c);  // error here
 }
