// Mistake: ReLU's backward accumulated into the stream's gradient (d_e) instead of the hidden one (d_mlp).
// dX += dY ⊙ [X > 0] is elementwise over the MLP's pre-activations (d_mlp, ℓ); the stream's
// gradient comes after W_1ᵀ.
// Fix: a (d_mlp, l_x) gradient, then matmul_add(transpose(W_1), d_pre, dX).
// fixed: mat<float, d_e<16>, l_x<8>>& dX => mat<float, d_mlp<32>, l_x<8>>& dX
// covers: relu_backward(dx x)
// expect: in::relu_backward
// first-error: dX_rows<typeformer::d_e<16>, X_rows<typeformer::d_mlp<32>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void back(const mat<float, d_mlp<32>, l_x<8>>& pre, const mat<float, d_mlp<32>, l_x<8>>& d_act,
          mat<float, d_e<16>, l_x<8>>& dX) {
    relu_backward(pre, d_act, dX);  // error here
}
