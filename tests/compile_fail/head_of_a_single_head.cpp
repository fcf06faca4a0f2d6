// Mistake: asking for head 1 of the queries of one head (d_attn, l_x) instead of the stack (H·d_attn, l_x).
// Algorithm 5 (line 3) splits Q ∈ R^{H·d_attn × ℓ} into H blocks Q^h; once split, a head's Q^h is
// (d_attn, ℓ) and has no heads of its own.
// Fix: take head<h> of the stacked Q, mat<float, prod<H<4>, d_attn<16>>, l_x<8>>.
// fixed: mat<float, d_attn<16>, l_x<8>>& Q_h => mat<float, prod<H<4>, d_attn<16>>, l_x<8>>& Q_h
// covers: head(y)
// expect: in::head
// first-error: Y_rows<typeformer::d_attn<16>, needed<typeformer::stacked_heads
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void second_head(mat<float, d_attn<16>, l_x<8>>& Q_h) {
    auto Q_1 = head<1>(Q_h);  // error here
    (void)Q_1;
}
