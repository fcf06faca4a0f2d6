// Mistake: taking the trainable gains and biases from a wider base model.
// trainable_from(base, tr) copies the base's γ, β and biases into tr: tr's are this model's (d_e =
// 32), the base's have 64 entries.
// Fix: the base the part belongs to (DTransformer<float, tiny>).
// fixed: float, wide> => float, tiny>
// covers: trainable_from(base)
// expect: in::trainable_from
// first-error: typeformer::part_of<typeformer::DTransformer<float, tiny, typeformer::model<typeformer::DTransformer<float, wide, typeformer::first_difference<typeformer::d_e<32>, typeformer::d_e<64
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
struct wide {  // the same GPT with a wider stream
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 64, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

void start(const tf::DTransformer<float, wide>& base,
           tf::trainable<tf::DTransformer<float, tiny>, tf::train_gains_biases>& tr) {
    tf::trainable_from(base, tr);  // error here
}
