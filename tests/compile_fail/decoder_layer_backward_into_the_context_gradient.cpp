// Mistake: a decoder layer's input gradient dX written into dZ's buffer (l_z).
// ∂loss/∂X has X's shape (d_e, l_x); the context's gradient dZ is (d_e, l_z).
// Fix: dX (d_e, l_x).
// fixed: Z_t& dX, Z_t& dZ => X_t& dX, Z_t& dZ
// covers: backward[decoder_layer](dX)
// expect: in::decoder_layer_backward
// first-error: dX_cols<typeformer::l_z<8, X_cols<typeformer::l_x<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct translator {  // Algorithm 8: l_x and l_z both hold 8 tokens
    static constexpr std::size_t N_V = 32, l_max = 8, L = 1, H = 2, d_e = 16, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};
struct wider {  // the same seq2seq model with a wider stream
    static constexpr std::size_t N_V = 32, l_max = 8, L = 1, H = 2, d_e = 32, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};
namespace tf = typeformer;

using layer = tf::decoder_layer<float, translator>;
using X_t = tf::mat<float, tf::d_e<16>, tf::l_x<8>>;
using Z_t = tf::mat<float, tf::d_e<16>, tf::l_z<8>>;

 void run(const layer& p, const X_t& X, const Z_t& Z, const layer::activations<tf::l_x<8>, tf::l_z<8>>& a, Z_t& dX, Z_t& dZ, layer& g, layer::scratch<tf::l_x<8>, tf::l_z<8>>& s) {
     backward(p, X.view(), Z.view(), a, dX.view(), dZ.view(), g, s);  // error here
 }
