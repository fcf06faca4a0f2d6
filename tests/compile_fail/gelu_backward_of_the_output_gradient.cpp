// Mistake: GELU's backward given the gradient of the MLP's output (d_e) as dY.
// GELU′ multiplies the gradient of GELU's own output, (d_mlp, ℓ), which W_2ᵀ makes of the output's
// gradient first.
// Fix: dAct = W_2ᵀ dY, then gelu_backward(pre, dAct, d_pre).
// fixed: const mat<float, d_e<32>, l_x<8>>& dY => const mat<float, d_mlp<128>, l_x<8>>& dY
// covers: gelu_backward(dy x)
// expect: in::gelu_backward
// first-error: dY_rows<typeformer::d_e<32>, X_rows<typeformer::d_mlp<128>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void back(const mat<float, d_mlp<128>, l_x<8>>& pre, const mat<float, d_e<32>, l_x<8>>& dY,
          mat<float, d_mlp<128>, l_x<8>>& d_pre) {
    gelu_backward(pre, dY, d_pre);  // error here
}
