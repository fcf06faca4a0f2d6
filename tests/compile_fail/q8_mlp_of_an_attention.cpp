// Mistake: the int8 form of a layer's MLP made of its attention.
// q8_mlp<Mlp> is the MLP's parameters (W_1, b_1, W_2, b_2) with int8 W_1, W_2; an MHAttention
// has W_q, W_k, W_v, W_o (q8_attention).
// Fix: q8_mlp<layer::mlp_type>.
// fixed: q8_mlp<layer::attn_type> => q8_mlp<layer::mlp_type>
// covers: nn::q8_mlp(Mlp)
// expect: in::q8_mlp
// first-error: template_argument<typeformer::nn::MHAttention<float, typeformer::d_e<32>, needed<typeformer::an_mlp
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

tf::nn::q8_mlp<layer::attn_type> mlp;  // error here
