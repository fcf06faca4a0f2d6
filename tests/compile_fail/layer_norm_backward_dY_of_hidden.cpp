// Mistake: the layer-norm kernel's backward given the gradient of the MLP's hidden activations as dY.
// Algorithm 6 normalises each column of X (d_e, ℓ); its backward takes ∂loss/∂Y of the same shape.
// The MLP's hidden gradient is (d_mlp, ℓ): it belongs to W_1's backward, before ln2.
// Fix: pass ∂loss/∂X̃ (d_e, l_x), the gradient of the norm's output.
// fixed: const mat<float, d_mlp<128>, l_x<8>>& dH => const mat<float, d_e<32>, l_x<8>>& dH
// covers: layer_norm_backward(dy x)
// expect: in::layer_norm_kernel_backward
// first-error: dY_rows<typeformer::d_mlp<128>, X_rows<typeformer::d_e<32>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void ln_backward(const mat<float, d_mlp<128>, l_x<8>>& dH, const mat<float, d_e<32>, l_x<8>>& X,
                 const vec<float, d_e<32>>& gamma, const vec<float, l_x<8>>& mean,
                 const vec<float, l_x<8>>& rstd, mat<float, d_e<32>, l_x<8>>& dX,
                 vec<float, d_e<32>>& dgamma, vec<float, d_e<32>>& dbeta) {
    layer_norm_backward(dH, X, gamma, mean, rstd, dX, dgamma, dbeta);  // error here
}
