// Mistake: nn::gelu_tanh's backward with a double gradient for float pre-activations.
// Backward keeps the forward's scalar type: dX, dY and X are all float in a float model.
// Fix: float gradients.
// fixed: const mat<double, d_mlp<128>, l_x<8>>& d_act => const mat<float, d_mlp<128>, l_x<8>>& d_act
// covers: nn::gelu_tanh::backward(dy x)
// expect: in::gelu_tanh_backward
// first-error: dY_scalar<double>, X_scalar<float>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void back(const mat<float, d_mlp<128>, l_x<8>>& pre, const mat<double, d_mlp<128>, l_x<8>>& d_act,
          mat<float, d_mlp<128>, l_x<8>>& d_pre) {
    nn::gelu_tanh::backward(pre, d_act, d_pre);  // error here
}
