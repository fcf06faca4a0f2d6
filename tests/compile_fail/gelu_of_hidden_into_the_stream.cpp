// Mistake: GELU of the MLP's pre-activations written into the residual stream.
// The MLP applies GELU elementwise to W_1 X + b_1 (d_mlp, ℓ); its output has the same shape, and
// only W_2 brings it back to d_e.
// Fix: a (d_mlp, l_x) buffer for GELU's output, then matmul(W_2, act, Y).
// fixed: mat<float, d_e<32>, l_x<8>>& X => mat<float, d_mlp<128>, l_x<8>>& X
// covers: gelu(y x)
// expect: in::gelu
// first-error: Y_rows<typeformer::d_e<32>, X_rows<typeformer::d_mlp<128>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void activate(const mat<float, d_mlp<128>, l_x<8>>& pre, mat<float, d_e<32>, l_x<8>>& X) {
    gelu(pre, X);  // error here
}
