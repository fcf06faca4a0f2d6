// Mistake: copying the primary sequence X (d_e, l_x) into the context Z (d_e, l_z).
// Both have capacity 16, but l_x and l_z are different lengths (Algorithm 4: the token
// sequences being attended from and attended to); only relabel<d_e<8>, l_z<16>>(X) says so.
// expect: l_x<16>, l_z<16>, same_shape_type
// first-error: copy, l_x<16>, l_z<16>
// max-lines: 16
#include <typeformer/tensor.hpp>

using namespace typeformer;

void make_context(const mat<float, d_e<8>, l_x<16>>& X,  // (d_e, l_x)
                  mat<float, d_e<8>, l_z<16>>& Z) {      // (d_e, l_z)
    copy(X, Z);  // error here
}
