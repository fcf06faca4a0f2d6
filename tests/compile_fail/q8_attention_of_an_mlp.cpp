// Mistake: the int8 form of a layer's attention made of its MLP.
// q8_attention<Attn> is MHAttention's parameters (Algorithm 5: W_q, W_k, W_v, W_o and their
// biases) with int8 matrices; an mlp has W_1, W_2 (q8_mlp).
// Fix: q8_attention<layer::attn_type>.
// fixed: q8_attention<layer::mlp_type> => q8_attention<layer::attn_type>
// covers: nn::q8_attention(Attn)
// expect: in::q8_attention
// first-error: template_argument<typeformer::nn::mlp<float, typeformer::d_e<32>, typeformer::d_mlp<128>, needed<typeformer::an_MHAttention
// max-lines: 9
// clang-max-lines: 14
#include <typeformer/typeformer.hpp>

#include <typeformer/models/quantized.hpp>

struct tiny {
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;
using layer = tf::DTransformer<float, tiny>::layer_type;

tf::nn::q8_attention<layer::mlp_type> attention;  // error here
