// Mistake: a decoder layer (Algorithm 8, lines 14–19) run on its MLP's hidden activations.
// The decoder layer's stream X is (d_e, ℓ_x): its self-attention's W_q takes d_e rows.
// Fix: the decoder's stream.
// fixed: const tf::mat<float, tf::d_mlp<32>, tf::l_x<8>>& H => const tf::mat<float, tf::d_e<16>, tf::l_x<8>>& H
// covers: forward[decoder_layer](X p)
// expect: in::decoder_layer
// first-error: X_rows<typeformer::d_mlp<32>, W_q_cols<typeformer::d_e<16>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct translator {  // Algorithm 8: l_x and l_z both hold 8 tokens
    static constexpr std::size_t N_V = 32, l_max = 8, L = 1, H = 2, d_e = 16, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};
namespace tf = typeformer;
using layer = tf::decoder_layer<float, translator>;

void run(const layer& p, const tf::mat<float, tf::d_mlp<32>, tf::l_x<8>>& H,
         const tf::mat<float, tf::d_e<16>, tf::l_z<8>>& Z,
         tf::mat<float, tf::d_e<16>, tf::l_x<8>>& X_out, layer::activations<tf::l_x<8>, tf::l_z<8>>& a) {
    forward(p, H.view(), Z.view(), X_out.view(), a, 1e-5f);  // error here
}
