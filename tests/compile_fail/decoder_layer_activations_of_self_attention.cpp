// Mistake: a decoder layer run with activations sized for l_x × l_x.
// The activations keep cross-attention's K, V over l_z and its scores (l_z, l_x).
// Fix: activations<l_x<8>, l_z<8>>.
// fixed: layer::activations<tf::l_x<8>, tf::l_x<8>>& a => layer::activations<tf::l_x<8>, tf::l_z<8>>& a
// covers: forward[decoder_layer](a)
// expect: in::decoder_layer
// first-error: cache_given<typeformer::decoder_layer<float, translator>::activations<typeformer::l_x<8>, typeformer::l_x<8>, typeformer::workspace_kind::training, cache_expected<typeformer::decoder_layer<float, translator>::activations<typeformer::l_x<8>, typeformer::l_z<8>, typeformer::workspace_kind::training
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

 void run(const layer& p, const X_t& X, const Z_t& Z, X_t& X_out, layer::activations<tf::l_x<8>, tf::l_x<8>>& a) {
     forward(p, X.view(), Z.view(), X_out.view(), a, 1e-5f);  // error here
 }
