// Mistake: the MLP applied to its own hidden activations instead of the residual stream.
// Algorithm 10, line 8: X ← X + W_mlp2 GELU(W_mlp1 X̃ + b_mlp1 1ᵀ) + b_mlp2 1ᵀ; W_mlp1 is
// (d_mlp, d_e), so the MLP's input is the layer-normed stream X̃ (d_e, l_x), not the (d_mlp, l_x)
// activations it makes. The operands are spelled with the program's own aliases; the message still
// names d_mlp and d_e.
// Fix: forward(mlp, X_tilde, Y, cache) with X̃ (d_e, l_x).
// gallery: 13
// fixed: void block(const MLP& mlp, const hidden& H, => void block(const MLP& mlp, const stream& H,
// covers: nn::forward[mlp](X p)
// expect: in::MLP
// first-error: X_rows<typeformer::d_mlp<128>, W_1_cols<typeformer::d_e<32>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;
using MLP = tf::nn::mlp<float, tf::d_e<32>, tf::d_mlp<128>, tf::nn::gelu>;
using hidden = tf::mat<float, tf::d_mlp<128>, tf::l_x<16>>;  // (d_mlp, l_x)
using stream = tf::mat<float, tf::d_e<32>, tf::l_x<16>>;     // (d_e, l_x)

void block(const MLP& mlp, const hidden& H, stream& Y, MLP::cache<tf::l_x<16>>& c) {
    tf::nn::forward(mlp, H, Y, c);  // error here
}
