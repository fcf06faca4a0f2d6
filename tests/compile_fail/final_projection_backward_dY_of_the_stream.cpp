// Mistake: the final projection's backward given a (d_e, l_x) gradient as dY.
// ∂loss/∂Y has Y's shape (d_f, l_x).
// Fix: dY (d_f, l_x).
// fixed: const X_t& dY => const F_t& dY
// covers: backward[final_projection](dY)
// expect: in::final_projection_backward
// first-error: dY_rows<typeformer::d_e<32, W_f_rows<typeformer::d_f<48
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using proj = tf::final_projection<float, tf::d_f<48>, tf::d_e<32>, tf::nn::gelu>;
using F_t = tf::mat<float, tf::d_f<48>, tf::l_x<8>>;
using X_t = tf::mat<float, tf::d_e<32>, tf::l_x<8>>;

 void run(const proj& p, const X_t& X, const X_t& dY, X_t& dX, proj& g, const proj::cache<tf::l_x<8>>& c, proj::scratch<tf::l_x<8>>& s) {
     backward(p, X.view(), dY.view(), dX.view(), g, c, s);  // error here
 }
