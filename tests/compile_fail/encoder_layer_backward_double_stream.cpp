// Mistake: an encoder layer's backward with a double stream for a float layer.
// A layer's tensors have the layer's scalar type; the double reference is another model.
// Fix: float views.
// fixed: const tf::mat<double, tf::d_e<32>, tf::l_x<8>>& X => const tf::mat<float, tf::d_e<32>, tf::l_x<8>>& X
// covers: backward[encoder_layer](X p)
// expect: in::encoder_layer_backward
// first-error: X_scalar<double>, W_q_scalar<float>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;
using layer = tf::encoder_layer<float, tiny, tf::nn::gelu>;

void back(const layer& p, const tf::mat<double, tf::d_e<32>, tf::l_x<8>>& X,
          const layer::activations<tf::l_x<8>>& a, tf::mat<float, tf::d_e<32>, tf::l_x<8>>& dX,
          layer& g, layer::scratch<tf::l_x<8>>& s) {
    backward(p, X.view(), a, dX.view(), g, s);  // error here
}
