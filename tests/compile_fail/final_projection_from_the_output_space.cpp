// Mistake: Algorithm 9's final projection (line 10) given its own output (d_f) as input.
// Line 10 computes GELU(W_f X + b_f 1ᵀ) with W_f (d_f, d_e): its input is the encoder's stream
// (d_e, ℓ).
// Fix: the stream X (d_e, l_x).
// fixed: const tf::mat<float, tf::d_f<48>, tf::l_x<8>>& F => const tf::mat<float, tf::d_e<32>, tf::l_x<8>>& F
// covers: forward[final_projection](X p)
// expect: in::final_projection
// first-error: X_rows<typeformer::d_f<48>, W_f_cols<typeformer::d_e<32>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;
using proj = tf::final_projection<float, tf::d_f<48>, tf::d_e<32>, tf::nn::gelu>;

void project(const proj& p, const tf::mat<float, tf::d_f<48>, tf::l_x<8>>& F,
             tf::mat<float, tf::d_f<48>, tf::l_x<8>>& Y, proj::cache<tf::l_x<8>>& c) {
    forward(p, F.view(), Y.view(), c);  // error here
}
