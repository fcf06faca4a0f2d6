// Mistake: relabelling a sequence length (l_x, set at run time) as the fixed dimension l_max.
// l_x<8> holds up to 8 tokens, l_max<8> is exactly 8 positions (W_p's columns); relabel keeps a
// fixed dimension fixed and a length a length.
// Fix: positions of W_p are taken as X's length by the embedding itself (nn::embed).
// fixed: relabel<d_e<16>, l_max<8>>(X) => relabel<d_e<16>, l_z<8>>(X)
// covers: relabel(m)
// expect: in::relabel
// first-error: relabel_from<typeformer::l_x<8>, relabel_to<typeformer::l_max<8>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void positions(mat<float, d_e<16>, l_x<8>>& X) {  // (d_e, l_x)
    auto P = relabel<d_e<16>, l_max<8>>(X);  // error here
    P(0, 0) = 0.0f;
}
