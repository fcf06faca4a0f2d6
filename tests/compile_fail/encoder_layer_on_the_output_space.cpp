// Mistake: BERT's encoder layer (Algorithm 9, lines 4–8) run on the final projection's output (d_f).
// Each layer maps the stream X (d_e, ℓ); line 10's W_f takes it to d_f after the last layer.
// Fix: the stream before the final projection.
// fixed: const tf::mat<float, tf::d_f<48>, tf::l_x<8>>& F => const tf::mat<float, tf::d_e<32>, tf::l_x<8>>& F
// covers: forward[encoder_layer](X p)
// expect: in::encoder_layer
// first-error: X_rows<typeformer::d_f<48>, W_q_cols<typeformer::d_e<32>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;
using layer = tf::encoder_layer<float, tiny, tf::nn::gelu>;

void run(const layer& p, const tf::mat<float, tf::d_f<48>, tf::l_x<8>>& F,
         tf::mat<float, tf::d_e<32>, tf::l_x<8>>& X_out, layer::activations<tf::l_x<8>>& a) {
    forward(p, F.view(), X_out.view(), a, 1e-5f);  // error here
}
