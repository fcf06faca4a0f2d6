// Mistake: the final projection's input gradient written into a (d_f, l_x) buffer.
// ∂loss/∂X = W_fᵀ (…) has X's shape (d_e, l_x).
// Fix: dX (d_e, l_x).
// fixed: F_t& dX => X_t& dX
// covers: backward[final_projection](dX)
// expect: in::final_projection_backward
// first-error: dX_rows<typeformer::d_f<48, X_rows<typeformer::d_e<32
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using proj = tf::final_projection<float, tf::d_f<48>, tf::d_e<32>, tf::nn::gelu>;
using F_t = tf::mat<float, tf::d_f<48>, tf::l_x<8>>;
using X_t = tf::mat<float, tf::d_e<32>, tf::l_x<8>>;

 void run(const proj& p, const X_t& X, const F_t& dY, F_t& dX, proj& g, const proj::cache<tf::l_x<8>>& c, proj::scratch<tf::l_x<8>>& s) {
     backward(p, X.view(), dY.view(), dX.view(), g, c, s);  // error here
 }
