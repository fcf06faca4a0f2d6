// Mistake: the final layer norm (over d_e) applied to the MLP's hidden activations.
// Algorithm 6 normalises each column of the stream with γ, β ∈ R^{d_e}; a (d_mlp, l_x) matrix has
// no d_e coordinates to scale.
// Fix: forward(ln_f, X, X_tilde, cache, eps) with X (d_e, l_x).
// gallery: 12
// fixed: const mat<float, d_mlp<32>, l_x<4>>& H => const mat<float, d_e<8>, l_x<4>>& H
// covers: nn::forward[layer_norm](X p)
// expect: in::Algorithm_6_layer_norm
// first-error: X_rows<typeformer::d_mlp<32>, gamma_rows<typeformer::d_e<8>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void final_norm(const nn::layer_norm<float, d_e<8>>& ln_f,
                const mat<float, d_mlp<32>, l_x<4>>& H,  // (d_mlp, l_x)
                mat<float, d_e<8>, l_x<4>>& Y, nn::layer_norm<float, d_e<8>>::cache<l_x<4>>& c) {
    nn::forward(ln_f, H, Y, c, 1e-5f);  // error here
}
