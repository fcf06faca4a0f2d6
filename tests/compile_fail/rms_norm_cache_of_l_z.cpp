// Mistake: RMSnorm over l_x with the cache made for l_z.
// The cache keeps 1/rms of each column of X: l_x columns here, l_z in the cache.
// Fix: norm::cache<l_x<8>>.
// fixed: norm::cache<l_z<8>> => norm::cache<l_x<8>>
// covers: nn::forward[rms_norm](c)
// expect: in::RMSnorm
// first-error: typeformer::cache_given<typeformer::nn::rms_norm<float, typeformer::d_e<16, ::cache<typeformer::l_z<8, typeformer::cache_expected<typeformer::nn::rms_norm<float, typeformer::d_e<16, ::cache<typeformer::l_x<8
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;
using norm = nn::rms_norm<float, d_e<16>>;
using stream = mat<float, d_e<16>, l_x<8>>;

 void normalise(const norm& p, const stream& X, stream& Y, norm::cache<l_z<8>>& c) {
     nn::forward(p, X, Y, c, 1e-6f);  // error here
 }
