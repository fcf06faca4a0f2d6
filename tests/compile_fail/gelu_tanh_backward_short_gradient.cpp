// Mistake: the tanh GELU's backward with a gradient over 4 columns for pre-activations over 8.
// dX += dY ⊙ gelu′(X) pairs each column of X with the same column of dY; l_x<4> and l_x<8> are
// lengths of two sequences.
// Fix: the gradient of the same sequence (l_x<8>).
// fixed: mat<float, d_mlp<128>, l_x<4>>& d_act => mat<float, d_mlp<128>, l_x<8>>& d_act
// covers: gelu_tanh_backward(dy x)
// expect: in::gelu_tanh_backward
// first-error: dY_cols<typeformer::l_x<4>, X_cols<typeformer::l_x<8>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void back(const mat<float, d_mlp<128>, l_x<8>>& pre, const mat<float, d_mlp<128>, l_x<4>>& d_act,
          mat<float, d_mlp<128>, l_x<8>>& d_pre) {
    gelu_tanh_backward(pre, d_act, d_pre);  // error here
}
