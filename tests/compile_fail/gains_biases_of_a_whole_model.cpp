// Mistake: the gains and biases of a whole model asked of gains_biases_of, the per-block table.
// gains_biases_of<Block> names the γ, β and b_* of one block (a norm, MHAttention, mlp or
// gpt_layer); gains_biases<Model> gathers them for a DTransformer (every layer and ln_f).
// Fix: gains_biases<DTransformer<float, tiny>>.
// fixed: tf::gains_biases_of<tf::DTransformer<float, tiny>>::type => tf::gains_biases<tf::DTransformer<float, tiny>>
// covers: gains_biases_of(Block)
// expect: in::gains_biases_of
// first-error: template_argument<typeformer::DTransformer<float, tiny>, needed<typeformer::a_norm_attention_mlp_or_gpt_layer
// max-lines: 15
// clang-max-lines: 18
#include <typeformer/typeformer.hpp>

struct tiny {
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

tf::gains_biases_of<tf::DTransformer<float, tiny>>::type part;  // error here
