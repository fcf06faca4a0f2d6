// Mistake: RMSnorm's backward with the parameters of a wider norm.
// γ has d entries, one per row of X; this norm's d is 32, the stream's d_e 16.
// Fix: the norm that ran forward on X (nn::rms_norm<float, d_e<16>>).
// fixed: nn::rms_norm<float, d_e<32>>& p => norm& p
// covers: nn::backward[rms_norm](p)
// expect: in::RMSnorm_backward
// first-error: typeformer::X_rows<typeformer::d_e<16, typeformer::gamma_rows<typeformer::d_e<32
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using norm = nn::rms_norm<float, d_e<16>>;
using stream = mat<float, d_e<16>, l_x<8>>;

 void back(const nn::rms_norm<float, d_e<32>>& p, const stream& X, const stream& dY, stream& dX, norm& grads,
           const norm::cache<l_x<8>>& c) {
     nn::backward(p, X, dY, dX, grads, c);  // error here
 }
