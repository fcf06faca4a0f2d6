// Mistake: clipping a gradient by scaling it through a const reference.
// Clipping rescales ∇ in place (∇ ← ∇·c/‖∇‖); a const tensor cannot be written.
// Fix: take the gradient by non-const reference (or clip_grad_norm(grads, c) for a whole model).
// fixed: const mat<float, d_mlp<128>, d_e<32>>& dW_1 => mat<float, d_mlp<128>, d_e<32>>& dW_1
// covers: scale(x)
// expect: in::scale
// first-error: X_is_read_only<typeformer::mat<float, typeformer::d_mlp<128>, typeformer::d_e<32>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void clip(const mat<float, d_mlp<128>, d_e<32>>& dW_1, float c) {
    scale(dW_1, c);  // error here
}
