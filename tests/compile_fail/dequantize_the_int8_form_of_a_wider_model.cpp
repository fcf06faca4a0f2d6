// Mistake: dequantizing the int8 form of a wider model into the tiny float model.
// dequantize(q, m) writes each weight of q into the same weight of m: q8<DTransformer<float,
// wide>> has W_e over d_e = 64, the model 32.
// Fix: the float model q was quantized from (DTransformer<float, wide>).
// fixed: float, wide> => float, tiny>
// covers: dequantize(q m)
// expect: in::dequantize
// first-error: typeformer::q8_of<typeformer::DTransformer<float, wide, typeformer::model<typeformer::DTransformer<float, tiny, typeformer::first_difference<typeformer::d_e<64>, typeformer::d_e<32
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/models/quantized.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
struct wide {  // the same GPT with a wider stream
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 64, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

void reference(const tf::q8<tf::DTransformer<float, wide>>& q, tf::DTransformer<float, tiny>& model) {
    tf::dequantize(q, model);  // error here
}
