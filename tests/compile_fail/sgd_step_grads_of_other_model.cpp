// Mistake: θ ← θ − η∇ with the gradient of a wider model.
// sgd_step(model, grads, eta) walks model and grads in lockstep: they have one type. The error names
// both models and the first dimension in which they differ (d_e).
// Fix: the gradient of this model.
// gallery: 16
// fixed: typeformer::DTransformer<float, wide>& grads => typeformer::DTransformer<float, tiny>& grads
// covers: sgd_step(grads model)
// expect: in::sgd_step
// first-error: grads<typeformer::DTransformer<float, wide>, model<typeformer::DTransformer<float, tiny>, first_difference<typeformer::d_e<64>, typeformer::d_e<32>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

struct tiny {  // DESIGN.md's "tiny" GPT: d_attn = d_mid = 16
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 32, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};

struct wide {
    static constexpr std::size_t N_V = 64, l_max = 32, L = 2, H = 2, d_e = 64, d_mlp = 128,
                                 d_attn = 16, d_mid = 16;
};

void step(typeformer::DTransformer<float, tiny>& model,
          const typeformer::DTransformer<float, wide>& grads) {
    typeformer::sgd_step(model, grads, 0.1f);  // error here
}
