// Mistake: a BERT layer's input gradient written into a stream over l_z.
// ∂loss/∂X has X's shape (d_e, l_x).
// Fix: dX (d_e, l_x).
// fixed: tf::mat<float, tf::d_e<32>, tf::l_z<8>>& dX => X_t& dX
// covers: backward[encoder_layer](dX)
// expect: in::encoder_layer_backward
// first-error: dX_cols<typeformer::l_z<8, X_cols<typeformer::l_x<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
struct wide {  // the same GPT with a wider stream
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 64, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

using layer = tf::encoder_layer<float, tiny, tf::nn::gelu>;
using X_t = tf::mat<float, tf::d_e<32>, tf::l_x<8>>;

 void run(const layer& p, const X_t& X, const layer::activations<tf::l_x<8>>& a, tf::mat<float, tf::d_e<32>, tf::l_z<8>>& dX, layer& g, layer::scratch<tf::l_x<8>>& s) {
     backward(p, X.view(), a, dX.view(), g, s);  // error here
 }
