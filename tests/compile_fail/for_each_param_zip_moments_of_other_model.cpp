// Mistake: an optimiser's walk zipping the parameters with the moments of a wider model.
// for_each_param_zip walks same-typed structs leaf by leaf (θ, ∇, m, v): moments of a model with
// d_e = 64 have other shapes.
// Fix: adam_state<Model>'s m and v, of the model's type.
// fixed: tf::DTransformer<float, wide>& m => tf::DTransformer<float, tiny>& m
// covers: for_each_param_zip(xs x)
// expect: in::for_each_param_zip
// first-error: other_model<typeformer::DTransformer<float, wide>, model<typeformer::DTransformer<float, tiny>, first_difference<typeformer::d_e<64>, typeformer::d_e<32>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
struct wide {  // tiny with d_e = 64
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 64, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;
struct update {  // θ ← θ − η·m (a function object: a lambda would also be named by GCC twice)
    template <class Name, class P, class M>
    void operator()(const Name&, P& p, const M& m) const;
};

void step(tf::DTransformer<float, tiny>& theta, const tf::DTransformer<float, wide>& m) {
    tf::for_each_param_zip(update{}, theta, m);  // error here
}
