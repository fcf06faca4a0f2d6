// Mistake: a BERT layer run with activations sized for l_z.
// The activations keep the layer's intermediates per position of X (l_x).
// Fix: layer::activations<l_x<8>>.
// fixed: layer::activations<tf::l_z<8>>& a => layer::activations<tf::l_x<8>>& a
// covers: forward[encoder_layer](a)
// expect: in::encoder_layer
// first-error: cache_given<typeformer::encoder_layer<float, tiny, typeformer::nn::gelu>::activations<typeformer::l_z<8>, typeformer::workspace_kind::training, cache_expected<typeformer::encoder_layer<float, tiny, typeformer::nn::gelu>::activations<typeformer::l_x<8>, typeformer::workspace_kind::training
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

using layer = tf::encoder_layer<float, tiny, tf::nn::gelu>;
using X_t = tf::mat<float, tf::d_e<32>, tf::l_x<8>>;

 void run(const layer& p, const X_t& X, X_t& X_out, layer::activations<tf::l_z<8>>& a) {
     forward(p, X.view(), X_out.view(), a, 1e-5f);  // error here
 }
