// Mistake: the trained gains and biases of one model written into another.
// apply_trainable(tr, model) copies tr's leaves into the model they were taken from (or merges its
// adapters into it); these come from a model with more layers.
// Fix: a model of DTransformer<float, deep>, or tr of DTransformer<float, tiny>.
// fixed: trainable<DTransformer<float, deep>, train_gains_biases>& tr => trainable<DTransformer<float, tiny>, train_gains_biases>& tr
// covers: apply_trainable(tr model)
// expect: in::apply_trainable
// first-error: part_of<typeformer::DTransformer<float, deep>, model<typeformer::DTransformer<float, tiny>, first_difference<typeformer::L<4>, typeformer::L<2>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
struct deep {
    static constexpr std::size_t N_V = 64, l_max = 32, L = 4, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
using namespace typeformer;

void export_ready(const trainable<DTransformer<float, deep>, train_gains_biases>& tr,
                  DTransformer<float, tiny>& model) {
    apply_trainable(tr, model);  // error here
}
