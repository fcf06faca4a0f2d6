// Mistake: RMSnorm's backward given the gradient of the context (l_z) as dY.
// ∂loss/∂Y has Y's shape (d, l_x): one column per position the norm ran on.
// Fix: dY of the stream's shape.
// fixed: mat<float, d_e<16>, l_z<8>>& dY => stream& dY
// covers: nn::backward[rms_norm](dY)
// expect: in::RMSnorm_backward
// first-error: typeformer::dY_cols<typeformer::l_z<8, typeformer::X_cols<typeformer::l_x<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using norm = nn::rms_norm<float, d_e<16>>;
using stream = mat<float, d_e<16>, l_x<8>>;

 void back(const norm& p, const stream& X, const mat<float, d_e<16>, l_z<8>>& dY, stream& dX, norm& grads,
           const norm::cache<l_x<8>>& c) {
     nn::backward(p, X, dY, dX, grads, c);  // error here
 }
