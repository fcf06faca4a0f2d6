// Mistake: RMSnorm of the primary stream X (d_e, l_x) written into the context's buffer (d_e, l_z).
// Both lengths hold 8 tokens; a layer norm keeps its input's columns, so its output runs over l_x.
// Fix: Y over l_x.
// fixed: mat<float, d_e<16>, l_z<8>>& Y => mat<float, d_e<16>, l_x<8>>& Y
// covers: nn::forward[rms_norm](Y X)
// expect: in::RMSnorm
// first-error: Y_cols<typeformer::l_z<8>, X_cols<typeformer::l_x<8>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void norm(const nn::rms_norm<float, d_e<16>>& ln, const mat<float, d_e<16>, l_x<8>>& X,
          mat<float, d_e<16>, l_z<8>>& Y, nn::rms_norm<float, d_e<16>>::cache<l_x<8>>& c) {
    nn::forward(ln, X, Y, c, 1e-5f);  // error here
}
