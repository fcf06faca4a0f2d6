// Mistake: a decoder layer's backward given the context of a wider encoder.
// Z (d_e, l_z) is read with W_k, W_v over this model's d_e = 16.
// Fix: this model's Z.
// fixed: const tf::mat<float, tf::d_e<32>, tf::l_z<8>>& Z => const Z_t& Z
// covers: backward[decoder_layer](Z)
// expect: in::decoder_layer_backward
// first-error: Z_rows<typeformer::d_e<32, W_k_cols<typeformer::d_e<16
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

 void run(const layer& p, const X_t& X, const tf::mat<float, tf::d_e<32>, tf::l_z<8>>& Z, const layer::activations<tf::l_x<8>, tf::l_z<8>>& a, X_t& dX, Z_t& dZ, layer& g, layer::scratch<tf::l_x<8>, tf::l_z<8>>& s) {
     backward(p, X.view(), Z.view(), a, dX.view(), dZ.view(), g, s);  // error here
 }
