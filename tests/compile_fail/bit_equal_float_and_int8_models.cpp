// Mistake: checking a model and its int8 form for bit equality.
// bit_equal compares two structs of one type leaf by leaf; the int8 form holds q8_mat weights
// (int8 and a scale per row), not the float model's tensors.
// Fix: dequantize(q, m) into a float model first, then compare (max_abs_diff: the rounding
// differs).
// fixed: const tf::q8<gpt>& q => const gpt& q
// covers: bit_equal(b a)
// expect: in::bit_equal
// first-error: model<typeformer::quantized<typeformer::DTransformer<float, tiny>, needed<typeformer::model_parameters
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/models/quantized.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;
using gpt = tf::DTransformer<float, tiny>;

bool same(const gpt& m, const tf::q8<gpt>& q) {
    return tf::bit_equal(m, q);  // error here
}
