// Mistake: one GPT layer (Algorithm 10, lines 5–8) run on the MLP's hidden activations instead of the stream.
// A layer maps the residual stream X (d_e, ℓ) to X (d_e, ℓ): its first product, W_q X after ln1,
// needs d_e rows.
// Fix: the stream X (d_e, l_x), as views: forward(layer, X.view(), X.view(), a, eps).
// fixed: const tf::mat<float, tf::d_mlp<128>, tf::l_x<8>>& H => const tf::mat<float, tf::d_e<32>, tf::l_x<8>>& H
// covers: forward[gpt_layer](X p)
// expect: in::gpt_layer
// first-error: X_rows<typeformer::d_mlp<128>, W_q_cols<typeformer::d_e<32>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;
using layer = tf::gpt_layer<float, tiny>;

void run(const layer& p, const tf::mat<float, tf::d_mlp<128>, tf::l_x<8>>& H,
         tf::mat<float, tf::d_e<32>, tf::l_x<8>>& X_out, layer::activations<tf::l_x<8>>& a) {
    forward(p, H.view(), X_out.view(), a, 1e-5f);  // error here
}
