// Mistake: zeroing a gradient through a const reference before the backward pass.
// Backward accumulates (∇ += …), so gradients are zeroed first; a const matrix (or a view of
// const) cannot be written.
// Fix: take the gradient by non-const reference.
// fixed: const mat<float, d_attn<16>, d_e<32>>& dW_q => mat<float, d_attn<16>, d_e<32>>& dW_q
// covers: fill(x)
// expect: in::fill
// first-error: X_is_read_only<typeformer::mat<float, typeformer::d_attn<16>, typeformer::d_e<32>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void clear(const mat<float, d_attn<16>, d_e<32>>& dW_q) {
    fill(dW_q, 0.0f);  // error here
}
