// Mistake: Algorithm 9's final projection written into a (d_e, l_x) stream.
// Y = GELU(W_f X + b_f) has d_f rows (W_f is d_f × d_e).
// Fix: Y (d_f, l_x).
// fixed: X_t& Y, => F_t& Y,
// covers: forward[final_projection](Y)
// expect: in::final_projection
// first-error: Y_rows<typeformer::d_e<32, W_f_rows<typeformer::d_f<48
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using proj = tf::final_projection<float, tf::d_f<48>, tf::d_e<32>, tf::nn::gelu>;
using F_t = tf::mat<float, tf::d_f<48>, tf::l_x<8>>;
using X_t = tf::mat<float, tf::d_e<32>, tf::l_x<8>>;

 void run(const proj& p, const X_t& X, X_t& Y, proj::cache<tf::l_x<8>>& c) {
     forward(p, X.view(), Y.view(), c);  // error here
 }
