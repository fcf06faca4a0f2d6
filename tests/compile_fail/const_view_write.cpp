// Mistake: writing into a read-only view. A function that receives its input as
// mat_view<const T, ...> cannot modify it; only a mutable view or the owning tensor can be written.
// expect: mat_view<const float, d_e<8>, l_x<16>
// first-error: read-only, const float, d_e<8>, l_x<16>
// max-lines: 4
#include <typeformer/tensor.hpp>

using namespace typeformer;

void normalise_in_place(mat_view<const float, d_e<8>, l_x<16>> X) {  // (d_e, l_x), read-only
    for (std::size_t t = 0; t < X.cols(); ++t)
        X(0, t) = 0.0f;  // error here
}
