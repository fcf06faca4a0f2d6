// Mistake: RMSnorm of one layer applied to the stream of a wider model.
// RMSnorm scales each column of X (d, ℓ) by γ (d): γ here has d_e = 16 entries, the stream 32
// rows.
// Fix: the norm of this model's layers (nn::rms_norm<float, d_e<32>>).
// fixed: const norm& p => const nn::rms_norm<float, d_e<32>>& p
// covers: nn::forward[rms_norm](p X)
// expect: in::RMSnorm
// first-error: typeformer::X_rows<typeformer::d_e<32, typeformer::gamma_rows<typeformer::d_e<16
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using norm = nn::rms_norm<float, d_e<16>>;
using stream = mat<float, d_e<16>, l_x<8>>;

 void normalise(const norm& p, const mat<float, d_e<32>, l_x<8>>& X, mat<float, d_e<32>, l_x<8>>& Y,
                nn::rms_norm<float, d_e<32>>::cache<l_x<8>>& c) {
     nn::forward(p, X, Y, c, 1e-6f);  // error here
 }
