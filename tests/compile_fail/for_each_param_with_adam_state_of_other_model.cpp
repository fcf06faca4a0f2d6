// Mistake: walking a model and the Adam moments of another model in lockstep.
// for_each_param(model, other, f) pairs leaves by name and shape; moments m, v of a model with d_e
// = 64 have other shapes than a model with d_e = 32.
// Fix: the moments of this model (adam_state<Model>'s m and v have its type).
// fixed: tf::DTransformer<float, wide>& m => tf::DTransformer<float, tiny>& m
// covers: for_each_param(model grads)
// expect: in::for_each_param
// first-error: other_model<typeformer::DTransformer<float, wide>, model<typeformer::DTransformer<float, tiny>, first_difference<typeformer::d_e<64>, typeformer::d_e<32>
// max-lines: 14
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
struct wide {
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 64, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

void inspect(const tf::DTransformer<float, tiny>& model, const tf::DTransformer<float, wide>& m) {
    tf::for_each_param(model, m, [](const auto&, const auto&, const auto&) {});  // error here
}
