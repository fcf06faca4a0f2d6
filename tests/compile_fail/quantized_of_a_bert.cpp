// Mistake: naming quantized<ETransformer<...>> directly for a BERT's int8 form.
// Only DTransformer<float, cfg> has an int8 form; q8<Model> says so with a shape_error, the class
// template itself is only declared for other models.
// Fix: q8<Model> names the int8 form (and says what it needs); keep the ETransformer in float.
// fixed: quantized<typeformer::ETransformer<float, tiny>> => quantized<typeformer::DTransformer<float, tiny>>
// covers: quantized(Model)
// expect: quantized<typeformer::ETransformer<float, tiny>
// first-error: quantized<typeformer::ETransformer<float, tiny>
// max-lines: 3
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/models/quantized.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};

typeformer::quantized<typeformer::ETransformer<float, tiny>> model;  // error here
