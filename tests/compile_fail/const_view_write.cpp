// Mistake: writing into a read-only view.
// A function that receives its input as mat_view<const T, ...> cannot modify it; only a mutable view
// or the owning tensor can be written.
// Fix: take a mat_view<float, ...> (or the owning mat) if the function is meant to write.
// fixed: mat_view<const float, d_e<8>, l_x<16>> X => mat_view<float, d_e<8>, l_x<16>> X
// expect: mat_view<const float, typeformer::d_e<8>, typeformer::l_x<16>
// first-error: read-only, d_e<8>, l_x<16>
// max-lines: 4
// clang-max-lines: 7
// clang-expect: const-qualified type 'const float &'
// clang-first-error: operator(), returns a const value
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void normalise_in_place(mat_view<const float, d_e<8>, l_x<16>> X) {  // (d_e, l_x), read-only
    for (std::size_t t = 0; t < X.cols(); ++t)
        X(0, t) = 0.0f;  // error here
}
