// Mistake: the int8 MLP given its own hidden activations (d_mlp) as its input.
// The int8 MLP computes what the float one does, W_2·GELU(W_1 X + b_1) + b_2 over the stream X
// (d_e, ℓ).
// Fix: the stream (d_e, l_x) as X.
// fixed: const tf::mat<float, tf::d_mlp<128>, tf::l_x<8>>& H => const stream& H
// covers: nn::forward[q8_mlp](X p)
// expect: in::MLP
// first-error: X_rows<typeformer::d_mlp<128>, W_1_cols<typeformer::d_e<32>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/models/quantized.hpp>

namespace tf = typeformer;
using mlp_t = tf::nn::mlp<float, tf::d_e<32>, tf::d_mlp<128>, tf::nn::gelu>;
using stream = tf::mat<float, tf::d_e<32>, tf::l_x<8>>;

void int8_mlp(const tf::nn::q8_mlp<mlp_t>& p, const tf::mat<float, tf::d_mlp<128>, tf::l_x<8>>& H,
              stream& Y, mlp_t::cache<tf::l_x<8>>& c) {
    tf::nn::forward(p, H, Y, c);  // error here
}
