// Mistake: layer_norm's output written into the MLP's hidden buffer (d_mlp, l_x).
// Algorithm 6 normalises each column of X (d_e, ℓ) and scales it by γ, β (d_e): its output has X's
// shape, not W_mlp1's.
// Fix: an output of the stream's shape (d_e, l_x).
// fixed: hidden& Y => stream& Y
// covers: nn::forward[layer_norm](Y)
// expect: in::Algorithm_6_layer_norm
// first-error: typeformer::Y_rows<typeformer::d_mlp<128, typeformer::gamma_rows<typeformer::d_e<32
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using LN = nn::layer_norm<float, d_e<32>>;
using stream = mat<float, d_e<32>, l_x<8>>;
using hidden = mat<float, d_mlp<128>, l_x<8>>;

 void norm(const LN& ln, const stream& X, hidden& Y, LN::cache<l_x<8>>& c) {
     nn::forward(ln, X, Y, c, 1e-5f);  // error here
 }
