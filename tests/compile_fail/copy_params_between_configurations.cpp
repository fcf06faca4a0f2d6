// Mistake: copying the weights of a model with H = 4, d_attn = 8 into one with H = 2, d_attn = 16.
// Both have W_q of 32×32 scalars, but the shapes are (H·d_attn, d_e) = (4·8, 32) against (2·16,
// 32): the heads are cut differently, and so is every per-head tensor.
// Fix: copy between models of one configuration; to change H, retrain (or import through a
// mapping).
// fixed: tf::DTransformer<float, four_heads>& src => tf::DTransformer<float, tiny>& src
// covers: copy_params(src dst)
// expect: in::copy_params
// first-error: other_model<typeformer::DTransformer<float, four_heads>, model<typeformer::DTransformer<float, tiny>, first_difference<typeformer::H<4>, typeformer::H<2>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
struct four_heads {
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 4, d_e = 32, d_mlp = 128,
                                 d_attn = 8, d_mid = 8;
};
namespace tf = typeformer;

void warm_start(const tf::DTransformer<float, four_heads>& src, tf::DTransformer<float, tiny>& dst) {
    tf::copy_params(src, dst);  // error here
}
