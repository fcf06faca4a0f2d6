// Mistake: Algorithm 9's final projection's backward given ∂X of its input as its input X's place.
// The projection's backward takes the forward's input X (d_e, ℓ) first; the d_f-row tensors are
// its output side.
// Fix: X (d_e, l_x), then ∂Y (d_f, l_x).
// fixed: const F_t& Y, => const X_t& Y,
// covers: backward[final_projection](X p)
// expect: in::final_projection_backward
// first-error: X_rows<typeformer::d_f<48>, W_f_cols<typeformer::d_e<32>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;
using proj = tf::final_projection<float, tf::d_f<48>, tf::d_e<32>, tf::nn::gelu>;
using F_t = tf::mat<float, tf::d_f<48>, tf::l_x<8>>;
using X_t = tf::mat<float, tf::d_e<32>, tf::l_x<8>>;

void back(const proj& p, const F_t& Y, const F_t& dY, X_t& dX, proj& g,
          const proj::cache<tf::l_x<8>>& c, proj::scratch<tf::l_x<8>>& s) {
    backward(p, Y.view(), dY.view(), dX.view(), g, c, s);  // error here
}
