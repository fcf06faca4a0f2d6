// Mistake: the MLP's fused residual add given the hidden activations as the residual.
// Algorithm 10, line 8 is X ← X + W_mlp2·GELU(W_mlp1·X̃ + b_mlp1) + b_mlp2: forward(mlp, X̃, Y,
// cache, R) computes Y = R + MLP(X̃), and R is the stream before the block (d_e, l_x), not the
// MLP's own (d_mlp, l_x) activations.
// Fix: forward(mlp, X_tilde, Y, cache, X) with X the block's input stream (d_e, l_x).
// fixed: tf::nn::forward(mlp, X_tilde, Y, c, c.act); => tf::nn::forward(mlp, X_tilde, Y, c, X_tilde);
// covers: nn::forward[mlp](R p)
// expect: in::MLP
// first-error: R_rows<typeformer::d_mlp<32>, W_2_rows<typeformer::d_e<8>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;
using MLP = tf::nn::mlp<float, tf::d_e<8>, tf::d_mlp<32>, tf::nn::gelu>;

void block(const MLP& mlp, const tf::mat<float, tf::d_e<8>, tf::l_x<4>>& X_tilde,  // (d_e, l_x)
           tf::mat<float, tf::d_e<8>, tf::l_x<4>>& Y, MLP::cache<tf::l_x<4>>& c) {
    tf::nn::forward(mlp, X_tilde, Y, c, c.act);  // error here
}
