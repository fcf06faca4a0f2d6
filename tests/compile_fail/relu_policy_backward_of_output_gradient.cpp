// Mistake: nn::relu's backward given the gradient of the MLP's output (d_e).
// The activation's backward multiplies the gradient of its own output (d_mlp, ℓ) by ReLU′(pre).
// Fix: W_2ᵀ dY first.
// fixed: const mat<float, d_e<16>, l_x<8>>& dY => const mat<float, d_mlp<32>, l_x<8>>& dY
// covers: nn::relu::backward(dy x)
// expect: in::relu_backward
// first-error: dY_rows<typeformer::d_e<16>, X_rows<typeformer::d_mlp<32>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void back(const mat<float, d_mlp<32>, l_x<8>>& pre, const mat<float, d_e<16>, l_x<8>>& dY,
          mat<float, d_mlp<32>, l_x<8>>& d_pre) {
    nn::relu::backward(pre, dY, d_pre);  // error here
}
