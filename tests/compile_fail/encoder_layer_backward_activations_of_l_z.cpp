// Mistake: a BERT layer's backward with activations of l_z positions.
// backward reads what the forward pass over X (l_x) kept.
// Fix: activations<l_x<8>>.
// fixed: const layer::activations<tf::l_z<8>>& a => const layer::activations<tf::l_x<8>>& a
// covers: backward[encoder_layer](a)
// expect: in::encoder_layer_backward
// first-error: cache_given<typeformer::encoder_layer<float, tiny, typeformer::nn::gelu>::activations<typeformer::l_z<8>, typeformer::workspace_kind::training, cache_expected<typeformer::encoder_layer<float, tiny, typeformer::nn::gelu>::activations<typeformer::l_x<8>, typeformer::workspace_kind::training
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

using layer = tf::encoder_layer<float, tiny, tf::nn::gelu>;
using X_t = tf::mat<float, tf::d_e<32>, tf::l_x<8>>;

 void run(const layer& p, const X_t& X, const layer::activations<tf::l_z<8>>& a, X_t& dX, layer& g, layer::scratch<tf::l_x<8>>& s) {
     backward(p, X.view(), a, dX.view(), g, s);  // error here
 }
