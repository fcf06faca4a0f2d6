// Mistake: ∂loss/∂logits accumulated into a buffer shaped like the residual stream (d_e, l_x).
// The gradient of the loss with respect to the logits W_u X has the logits' shape (N_V, ℓ); the
// stream's gradient ∂X (d_e, ℓ) comes after it, through W_uᵀ.
// Fix: a (N_V, l_x) dlogits, then matmul_add(transpose(W_u), dlogits, dX).
// fourteen: 11 cross_entropy_backward into a tensor of other dimensions
// fixed: mat<float, d_e<32>, l_x<8>>& dX => mat<float, N_V<64>, l_x<8>>& dX
// covers: cross_entropy_backward(dlogits logits)
// expect: in::cross_entropy_backward
// first-error: dlogits_rows<typeformer::d_e<32>, logits_rows<typeformer::N_V<64>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

float loss_and_dlogits(const mat<float, N_V<64>, l_x<8>>& logits, std::span<const token> targets,
                       mat<float, d_e<32>, l_x<8>>& dX) {
    return cross_entropy_backward(logits, targets, dX);  // error here
}
