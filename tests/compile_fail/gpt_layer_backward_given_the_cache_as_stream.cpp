// Mistake: one GPT layer's backward with its ∂X over the hidden dimension.
// A layer's backward maps ∂X (d_e, ℓ) of its output to ∂X of its input: the stream's shape
// throughout.
// Fix: ∂X as a (d_e, l_x) view.
// fixed: const tf::mat<float, tf::d_mlp<128>, tf::l_x<8>>& H => const tf::mat<float, tf::d_e<32>, tf::l_x<8>>& H
// covers: backward[gpt_layer](X p)
// expect: in::gpt_layer_backward
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

void back(const layer& p, const tf::mat<float, tf::d_mlp<128>, tf::l_x<8>>& H,
          const layer::activations<tf::l_x<8>>& a, tf::mat<float, tf::d_e<32>, tf::l_x<8>>& dX,
          layer& g, layer::scratch<tf::l_x<8>>& s) {
    backward(p, H.view(), a, dX.view(), g, s);  // error here
}
