// Mistake: splitting the attention's output (d_e, l_x) into heads, as if it were the stacked Y.
// Algorithm 5 splits the stacked Q, K, V and Y (H·d, ℓ) into heads; the output W_o Y + b_o is
// (d_e, ℓ), the heads already merged by W_o.
// Fix: split_heads of the (H·d_mid, l_x) stack Y, before W_o.
// fixed: mat<float, d_e<32>, l_x<8>>& V_tilde => mat<float, prod<H<2>, d_mid<16>>, l_x<8>>& V_tilde
// covers: split_heads(y)
// expect: in::split_heads
// first-error: Y_rows<typeformer::d_e<32>, needed<typeformer::stacked_heads
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void per_head(mat<float, d_e<32>, l_x<8>>& V_tilde) {
    auto parts = split_heads(V_tilde);  // error here
    (void)parts;
}
