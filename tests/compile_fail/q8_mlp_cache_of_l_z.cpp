// Mistake: the int8 MLP over l_x with the cache made for l_z.
// The cache keeps the hidden (d_mlp, ℓ) per column of X (l_x).
// Fix: mlp_t::cache<l_x<8>>.
// fixed: mlp_t::cache<tf::l_z<8>>& c => mlp_t::cache<tf::l_x<8>>& c
// covers: nn::forward[q8_mlp](c)
// expect: in::MLP
// first-error: typeformer::cache_given<typeformer::nn::mlp<float, typeformer::d_e<32>, typeformer::d_mlp<128>, typeformer::nn::gelu>::cache<typeformer::l_z<8, typeformer::cache_expected<typeformer::nn::mlp<float, typeformer::d_e<32>, typeformer::d_mlp<128>, typeformer::nn::gelu>::cache<typeformer::l_x<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/models/quantized.hpp>

namespace tf = typeformer;

using mlp_t = tf::nn::mlp<float, tf::d_e<32>, tf::d_mlp<128>, tf::nn::gelu>;
using stream = tf::mat<float, tf::d_e<32>, tf::l_x<8>>;
void int8_mlp(const tf::nn::q8_mlp<mlp_t>& p, const stream& X, stream& Y, mlp_t::cache<tf::l_z<8>>& c) {
    tf::nn::forward(p, X, Y, c);  // error here
}
