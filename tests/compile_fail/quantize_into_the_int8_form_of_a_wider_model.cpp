// Mistake: quantizing a trained model into the int8 form of another configuration.
// quantize(m, q) writes each weight of m into the same weight of q: q8<DTransformer<float, wide>>
// has W_e (d_e = 64, N_V) and every layer over d_e = 64, the model 32.
// Fix: q8<DTransformer<float, tiny>> (or `auto q = quantize(model)` on a host).
// fourteen: 5 quantizing into the int8 form of another configuration
// fixed: float, wide> => float, tiny>
// covers: quantize(m q)
// expect: in::quantize
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

void ship(const tf::DTransformer<float, tiny>& model, tf::q8<tf::DTransformer<float, wide>>& q) {
    tf::quantize(model, q);  // error here
}
