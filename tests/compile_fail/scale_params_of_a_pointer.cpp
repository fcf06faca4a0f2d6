// Mistake: scaling a model's parameters through a raw pointer to it.
// scale_params multiplies every scalar of a model (θ ← a·θ); a pointer holds the model's address,
// not its tensors.
// Fix: scale_params(*p, a).
// fixed: tf::scale_params(model, => tf::scale_params(*model,
// covers: scale_params(x)
// expect: in::scale_params
// first-error: model<typeformer::DTransformer<float, tiny>*, needed<typeformer::DTransformer<float, tiny>
// max-lines: 9
// clang-max-lines: 7
// clang-first-error: model<typeformer::DTransformer<float, tiny> *>, needed<typeformer::DTransformer<float, tiny>
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};
namespace tf = typeformer;

void shrink(tf::DTransformer<float, tiny>* model) {
    tf::scale_params(model, 0.5);  // error here
}
