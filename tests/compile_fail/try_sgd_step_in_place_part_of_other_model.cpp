// Mistake: a step of the trainable part of a wider model over this base.
// trainable<Model, S> holds Model's gains and biases; one of a model with a wider d_e does not
// fit the base's layers, and the error names the first dimension in which the two differ.
// Fix: trainable<DTransformer<float, tiny>, train_gains_biases>.
// fixed: trainable<DTransformer<float, wide>, train_gains_biases>& part => trainable<DTransformer<float, tiny>, train_gains_biases>& part
// covers: try_sgd_step_in_place(tr base)
// expect: in::try_sgd_step_in_place
// first-error: part_of<typeformer::DTransformer<float, wide>, model<typeformer::DTransformer<float, tiny>, first_difference<typeformer::d_e<64>, typeformer::d_e<32>
// max-lines: 9
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
using namespace typeformer;
using gpt = DTransformer<float, tiny>;

status fine_tune(const gpt& base, trainable<DTransformer<float, wide>, train_gains_biases>& part,
                 std::span<const token> x, step_workspace<gpt, train_gains_biases>& ws,
                 float& loss) {
    return try_sgd_step_in_place(base, part, x, 0.01f, ws, loss);  // error here
}
