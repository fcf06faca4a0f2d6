// Mistake: RMSnorm's backward given the cache its forward made for the context sequence.
// The cache holds 1/rms of each column of the forward's X; X (d_e, l_x) needs the cache made for
// l_x, not the one made for l_z (same capacity, another sequence).
// Fix: the cache of this forward, rms_norm<...>::cache<l_x<8>>.
// fixed: const norm::cache<l_z<8>>& c => const norm::cache<l_x<8>>& c
// covers: nn::backward[rms_norm](c X)
// expect: in::RMSnorm_backward
// first-error: cache_given<, cache<typeformer::l_z<8>, cache_expected<, cache<typeformer::l_x<8>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;
using norm = nn::rms_norm<float, d_e<16>>;

void norm_backward(const norm& ln, const mat<float, d_e<16>, l_x<8>>& X,
                   const mat<float, d_e<16>, l_x<8>>& dY, mat<float, d_e<16>, l_x<8>>& dX,
                   norm& grads, const norm::cache<l_z<8>>& c) {
    nn::backward(ln, X, dY, dX, grads, c);  // error here
}
