// Mistake: comparing a float model with its double reference by max_abs_diff.
// max_abs_diff walks two models of one type leaf by leaf; a DTransformer<double, cfg> is another
// type, its first difference the scalar.
// Fix: convert one side first (copy the double weights into a float model), then compare.
// fixed: const tf::DTransformer<double, tiny>& b => const tf::DTransformer<float, tiny>& b
// covers: max_abs_diff(b a)
// expect: in::max_abs_diff
// first-error: other_model<typeformer::DTransformer<double, tiny>, model<typeformer::DTransformer<float, tiny>, first_difference<double, float>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

double drift(const tf::DTransformer<float, tiny>& a, const tf::DTransformer<double, tiny>& b) {
    return tf::max_abs_diff(a, b);  // error here
}
