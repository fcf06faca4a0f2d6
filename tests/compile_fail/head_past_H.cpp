// Mistake: asking for head 4 of a stack of H = 4 heads (heads are 0-based: 0..3).
// Y ∈ R^{H·d_mid × l_x} is Algorithm 5's stack of per-head values; head<h>(Y) is Y^h, and a
// compile-time h is checked against H.
// Fix: head<3>(Y) is the last head.
// fixed: head<4>(Y) => head<3>(Y)
// covers: head(y)
// expect: in::head
// first-error: head_index<4>, heads<typeformer::H<4>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void last_head(mat<float, prod<H<4>, d_mid<16>>, l_x<8>>& Y) {  // (H·d_mid, l_x)
    auto Y_h = head<4>(Y);  // error here
    Y_h(0, 0) = 0.0f;
}
