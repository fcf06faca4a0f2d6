// Mistake: the int8 MLP's output written into its hidden buffer (d_mlp, l_x).
// The MLP maps X (d_e, ℓ) to (d_e, ℓ).
// Fix: Y (d_e, l_x).
// fixed: tf::mat<float, tf::d_mlp<128>, tf::l_x<8>>& Y => stream& Y
// covers: nn::forward[q8_mlp](Y)
// expect: in::MLP
// first-error: typeformer::Y_rows<typeformer::d_mlp<128, typeformer::W_2_rows<typeformer::d_e<32
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/models/quantized.hpp>

namespace tf = typeformer;

using mlp_t = tf::nn::mlp<float, tf::d_e<32>, tf::d_mlp<128>, tf::nn::gelu>;
using stream = tf::mat<float, tf::d_e<32>, tf::l_x<8>>;
void int8_mlp(const tf::nn::q8_mlp<mlp_t>& p, const stream& X, tf::mat<float, tf::d_mlp<128>, tf::l_x<8>>& Y,
              mlp_t::cache<tf::l_x<8>>& c) {
    tf::nn::forward(p, X, Y, c);  // error here
}
