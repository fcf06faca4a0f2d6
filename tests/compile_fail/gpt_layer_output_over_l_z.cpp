// Mistake: a GPT layer's output written into a stream over the context's positions (l_z).
// A layer maps X (d_e, ℓ) to X (d_e, ℓ): one output column per input column, l_x here.
// Fix: X_out (d_e, l_x), often X itself.
// fixed: tf::mat<float, tf::d_e<32>, tf::l_z<8>>& X_out => X_t& X_out
// covers: forward[gpt_layer](X_out)
// expect: in::gpt_layer
// first-error: X_out_cols<typeformer::l_z<8, X_cols<typeformer::l_x<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

using layer = tf::gpt_layer<float, tiny>;
using X_t = tf::mat<float, tf::d_e<32>, tf::l_x<8>>;

 void run(const layer& p, const X_t& X, tf::mat<float, tf::d_e<32>, tf::l_z<8>>& X_out, layer::activations<tf::l_x<8>>& a) {
     forward(p, X.view(), X_out.view(), a, 1e-5f);  // error here
 }
