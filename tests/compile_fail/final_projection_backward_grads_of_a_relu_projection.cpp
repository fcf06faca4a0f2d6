// Mistake: the final projection's gradients accumulated into a ReLU projection's.
// The activation is part of the block's type.
// Fix: grads of the block's own type.
// fixed: tf::final_projection<float, tf::d_f<48>, tf::d_e<32>, tf::nn::relu>& g => proj& g
// covers: backward[final_projection](grads)
// expect: in::final_projection_backward
// first-error: grads<typeformer::final_projection<float, typeformer::d_f<48>, typeformer::d_e<32>, typeformer::nn::relu, block<typeformer::final_projection<float, typeformer::d_f<48>, typeformer::d_e<32>, typeformer::nn::gelu
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using proj = tf::final_projection<float, tf::d_f<48>, tf::d_e<32>, tf::nn::gelu>;
using F_t = tf::mat<float, tf::d_f<48>, tf::l_x<8>>;
using X_t = tf::mat<float, tf::d_e<32>, tf::l_x<8>>;

 void run(const proj& p, const X_t& X, const F_t& dY, X_t& dX, tf::final_projection<float, tf::d_f<48>, tf::d_e<32>, tf::nn::relu>& g, const proj::cache<tf::l_x<8>>& c, proj::scratch<tf::l_x<8>>& s) {
     backward(p, X.view(), dY.view(), dX.view(), g, c, s);  // error here
 }
