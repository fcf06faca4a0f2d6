// Mistake: the heads' outputs Y^h (d_mid) stacked into a buffer shaped like the queries (H·d_attn).
// Algorithm 5 (line 5) stacks Y = [Y^1; …; Y^H] ∈ R^{H·d_mid × ℓ}: each Y^h = V^h·A^h has d_mid
// rows, not d_attn, even when both are 8.
// Fix: a (H·d_mid, l_x) buffer: mat<float, prod<H<2>, d_mid<8>>, l_x<4>>.
// fixed: prod<H<2>, d_attn<8>> => prod<H<2>, d_mid<8>>
// covers: concat_heads(y parts)
// expect: in::concat_heads
// first-error: Y_rows<typeformer::prod<typeformer::H<2>, typeformer::d_attn<8>, needed<typeformer::prod<typeformer::H<2>, typeformer::d_mid<8>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <array>

using namespace typeformer;

void merge(const std::array<mat_view<float, d_mid<8>, l_x<4>>, 2>& Y_h,
           mat<float, prod<H<2>, d_attn<8>>, l_x<4>>& Y) {
    concat_heads(Y_h, Y);  // error here
}
