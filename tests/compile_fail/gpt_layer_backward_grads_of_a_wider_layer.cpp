// Mistake: a GPT layer's gradients accumulated into a wider model's layer.
// The gradients have the layer's shapes (W_q: H·d_attn × d_e = 32); a layer of d_e = 64 has
// others.
// Fix: grads of the layer's own type.
// fixed: tf::gpt_layer<float, wide>& g => layer& g
// covers: backward[gpt_layer](g)
// expect: in::gpt_layer_backward
// first-error: grads<typeformer::gpt_layer<float, wide, block<typeformer::gpt_layer<float, tiny
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

using layer = tf::gpt_layer<float, tiny>;
using X_t = tf::mat<float, tf::d_e<32>, tf::l_x<8>>;

 void run(const layer& p, const X_t& X, const layer::activations<tf::l_x<8>>& a, X_t& dX, tf::gpt_layer<float, wide>& g, layer::scratch<tf::l_x<8>>& s) {
     backward(p, X.view(), a, dX.view(), g, s);  // error here
 }
