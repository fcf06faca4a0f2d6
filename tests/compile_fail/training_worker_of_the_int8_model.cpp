// Mistake: a training worker's buffers (gradient, workspace) for the int8 model.
// int8 weights have no gradient: a worker accumulates ∇loss of the float weights (Algorithm 13),
// and the int8 form is computed from them afterwards (quantize).
// Fix: training_worker<DTransformer<float, tiny>>, then quantize(model, q).
// fixed: tf::training_worker<tf::q8<tf::DTransformer<float, tiny>>> => tf::training_worker<tf::DTransformer<float, tiny>>
// covers: training_worker(Model)
// expect: in::training_worker
// first-error: q8_of<typeformer::DTransformer<float, tiny>, needed<typeformer::DTransformer<float, tiny>
// max-lines: 10
// clang-max-lines: 13
#include <typeformer/typeformer.hpp>

#include <typeformer/models/quantized.hpp>

struct tiny {
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

tf::training_worker<tf::q8<tf::DTransformer<float, tiny>>> worker;  // error here
