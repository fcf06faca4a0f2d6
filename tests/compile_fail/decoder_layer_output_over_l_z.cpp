// Mistake: a decoder layer's output written into a stream over l_z.
// The decoder layer maps X (d_e, l_x) to X (d_e, l_x).
// Fix: X_out (d_e, l_x).
// fixed: Z_t& X_out => X_t& X_out
// covers: forward[decoder_layer](X_out)
// expect: in::decoder_layer
// first-error: X_out_cols<typeformer::l_z<8, X_cols<typeformer::l_x<8
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

 void run(const layer& p, const X_t& X, const Z_t& Z, Z_t& X_out, layer::activations<tf::l_x<8>, tf::l_z<8>>& a) {
     forward(p, X.view(), Z.view(), X_out.view(), a, 1e-5f);  // error here
 }
