// Mistake: nn::gelu_tanh (GPT-2's activation) writing 4 columns of output for 8 of input.
// An elementwise activation keeps X's columns, here the 8 positions of l_x<8>.
// Fix: an output over the same length.
// fixed: mat<float, d_mlp<128>, l_x<4>>& act => mat<float, d_mlp<128>, l_x<8>>& act
// covers: nn::gelu_tanh::forward(y x)
// expect: in::gelu_tanh
// first-error: Y_cols<typeformer::l_x<4>, X_cols<typeformer::l_x<8>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void activate(const mat<float, d_mlp<128>, l_x<8>>& pre, mat<float, d_mlp<128>, l_x<4>>& act) {
    nn::gelu_tanh::forward(pre, act);  // error here
}
