// Mistake: training only the last layer of a translation model (an EDTransformer).
// last_layers<Model, k> holds the last k layers of a DTransformer's stack; an EDTransformer has
// two stacks (L_enc, L_dec) and its training is Algorithm 11's, of every parameter.
// Fix: EDTraining over the EDTransformer, or last_layers of a DTransformer.
// fixed: last_layers<EDTransformer<float, translator>, 1> => last_layers<DTransformer<float, decoder_only>, 1>
// fixed: using namespace typeformer; => struct decoder_only { static constexpr std::size_t N_V = 64, l_max = 16, L = 2, H = 2, d_e = 32, d_mlp = 64, d_attn = 16, d_mid = 16; }; using namespace typeformer;
// covers: last_layers(Model)
// expect: in::last_layers
// first-error: model<typeformer::EDTransformer<float, translator> >, typeformer::needed<typeformer::DTransformer<float, translator> >
// clang-first-error: model<typeformer::EDTransformer<float, translator>>, typeformer::needed<typeformer::DTransformer<float, translator>>
// max-lines: 12
// clang-max-lines: 15
#include <typeformer/typeformer.hpp>

struct translator {
    static constexpr std::size_t N_V = 64, l_max = 16, L_enc = 2, L_dec = 2, H = 2, d_e = 32,
                                 d_mlp = 64, d_attn = 16, d_mid = 16;
};
using namespace typeformer;

last_layers<EDTransformer<float, translator>, 1> part;  // error here
