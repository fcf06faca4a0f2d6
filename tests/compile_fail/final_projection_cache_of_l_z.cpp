// Mistake: the final projection run with a cache sized for l_z.
// The cache keeps W_f X + b_f (d_f, ℓ) per column of X (l_x).
// Fix: proj::cache<l_x<8>>.
// fixed: proj::cache<tf::l_z<8>>& c => proj::cache<tf::l_x<8>>& c
// covers: forward[final_projection](c)
// expect: in::final_projection
// first-error: cache_given<typeformer::final_projection<float, typeformer::d_f<48>, typeformer::d_e<32>, typeformer::nn::gelu>::cache<typeformer::l_z<8, cache_expected<typeformer::final_projection<float, typeformer::d_f<48>, typeformer::d_e<32>, typeformer::nn::gelu>::cache<typeformer::l_x<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using proj = tf::final_projection<float, tf::d_f<48>, tf::d_e<32>, tf::nn::gelu>;
using F_t = tf::mat<float, tf::d_f<48>, tf::l_x<8>>;
using X_t = tf::mat<float, tf::d_e<32>, tf::l_x<8>>;

 void run(const proj& p, const X_t& X, F_t& Y, proj::cache<tf::l_z<8>>& c) {
     forward(p, X.view(), Y.view(), c);  // error here
 }
