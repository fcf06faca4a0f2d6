// Mistake: Algorithm 13's gradient added into a gradient object of another architecture.
// loss_and_grad(model, x, grads) adds ∇loss(θ) into grads, which has the model's type: a
// DTransformer's gradient is a DTransformer. Here it is an ETransformer of the same configuration.
// Fix: auto grads = std::make_unique<DTransformer<float, tiny>>().
// gallery: 15
// fixed: typeformer::ETransformer<float, tiny>& grads => typeformer::DTransformer<float, tiny>& grads
// covers: loss_and_grad(grads model)
// expect: in::loss_and_grad
// first-error: grads<typeformer::ETransformer<float, tiny>, model<typeformer::DTransformer<float, tiny>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT: d_attn = d_mid = 16
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};

void step(const typeformer::DTransformer<float, tiny>& model, std::span<const typeformer::token> x,
          typeformer::ETransformer<float, tiny>& grads) {
    typeformer::loss_and_grad(model, x, grads);  // error here
}
