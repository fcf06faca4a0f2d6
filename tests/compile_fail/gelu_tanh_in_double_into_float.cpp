// Mistake: GPT-2's tanh GELU of double pre-activations written into a float buffer.
// An activation keeps the scalar type: a model's float stream is computed in float (and a device
// links no double).
// Fix: one scalar type for X and Y.
// fixed: const mat<double, d_mlp<128>, l_x<8>>& pre => const mat<float, d_mlp<128>, l_x<8>>& pre
// covers: gelu_tanh(y x)
// expect: in::gelu_tanh
// first-error: Y_scalar<float>, X_scalar<double>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void activate(const mat<double, d_mlp<128>, l_x<8>>& pre, mat<float, d_mlp<128>, l_x<8>>& act) {
    gelu_tanh(pre, act);  // error here
}
