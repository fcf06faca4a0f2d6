// Mistake: the final projection's backward with a cache of l_z.
// The cache holds W_f X + b_f per column of the X that ran forward (l_x).
// Fix: cache<l_x<8>>.
// fixed: const proj::cache<tf::l_z<8>>& c => const proj::cache<tf::l_x<8>>& c
// covers: backward[final_projection](c)
// expect: in::final_projection_backward
// first-error: cache_given<typeformer::final_projection<float, typeformer::d_f<48>, typeformer::d_e<32>, typeformer::nn::gelu>::cache<typeformer::l_z<8, cache_expected<typeformer::final_projection<float, typeformer::d_f<48>, typeformer::d_e<32>, typeformer::nn::gelu>::cache<typeformer::l_x<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using proj = tf::final_projection<float, tf::d_f<48>, tf::d_e<32>, tf::nn::gelu>;
using F_t = tf::mat<float, tf::d_f<48>, tf::l_x<8>>;
using X_t = tf::mat<float, tf::d_e<32>, tf::l_x<8>>;

 void run(const proj& p, const X_t& X, const F_t& dY, X_t& dX, proj& g, const proj::cache<tf::l_z<8>>& c, proj::scratch<tf::l_x<8>>& s) {
     backward(p, X.view(), dY.view(), dX.view(), g, c, s);  // error here
 }
