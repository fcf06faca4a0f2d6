// Mistake: the int8 form of a BERT (an ETransformer), which has none.
// quantized<Model> (q8<Model>) exists for DTransformer<float, cfg> only: its decoding kernels
// (kv_cache, DInference) are Algorithm 10's.
// Fix: q8<DTransformer<float, cfg>>, or keep the ETransformer in float.
// fourteen: 13 q8<ETransformer>, an architecture with no int8 form (was a bare incomplete type)
// fixed: using bert = tf::ETransformer<float, small>; => using bert = tf::DTransformer<float, small>;
// covers: q8(Model)
// expect: in::q8
// first-error: model<typeformer::ETransformer<float, small>, needed<typeformer::DTransformer<float, small>
// max-lines: 9
// clang-max-lines: 14
#include <typeformer/typeformer.hpp>

#include <typeformer/models/quantized.hpp>

struct small {
    static constexpr std::size_t N_V = 32, l_max = 32, L = 1, H = 2, d_e = 16, d_mlp = 32,
                                 d_attn = 8, d_mid = 8;
};
namespace tf = typeformer;
using bert = tf::ETransformer<float, small>;

tf::q8<bert> flash_model;  // error here
