// Mistake: the model's backward pass into a gradient of double where the model is float.
// Gradients have the parameters' type, scalar type included.
// Fix: a DTransformer<float, tiny> gradient.
// fixed: DTransformer<double, tiny>& grads => DTransformer<float, tiny>& grads
// covers: backward(grads model)
// expect: in::backward
// first-error: grads<typeformer::DTransformer<double, tiny>, model<typeformer::DTransformer<float, tiny>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT: d_attn = d_mid = 16
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};

using namespace typeformer;

void gradient(const DTransformer<float, tiny>& model, std::span<const token> x,
              training_workspace<DTransformer<float, tiny>>& ws, DTransformer<double, tiny>& grads) {
    backward(model, x, ws, grads);  // error here
}
