// Mistake: ReLU (Algorithm 8's MLP activation) of the decoder's hidden activations written into a buffer over the context length.
// ReLU is elementwise: its output has its input's shape, (d_mlp, l_x) here, and l_z is another
// dimension even at the same length.
// Fix: an output over l_x.
// fixed: mat<float, d_mlp<32>, l_z<8>>& act => mat<float, d_mlp<32>, l_x<8>>& act
// covers: relu(y x)
// expect: in::relu
// first-error: Y_cols<typeformer::l_z<8>, X_cols<typeformer::l_x<8>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void activate(const mat<float, d_mlp<32>, l_x<8>>& pre, mat<float, d_mlp<32>, l_z<8>>& act) {
    relu(pre, act);  // error here
}
