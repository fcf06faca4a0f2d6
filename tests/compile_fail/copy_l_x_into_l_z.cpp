// Mistake: copying the primary sequence X (d_e, l_x) into the context Z (d_e, l_z).
// Both have capacity 16, but l_x and l_z are different lengths (Algorithm 4: the sequence attending
// and the sequence attended to).
// Fix: say so explicitly: copy(relabel<d_e<8>, l_z<16>>(X), Z).
// fixed: copy(X, Z); => copy(relabel<d_e<8>, l_z<16>>(X), Z);
// covers: copy(dst src)
// expect: in::copy
// first-error: dst_cols<typeformer::l_z<16>, src_cols<typeformer::l_x<16>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void make_context(const mat<float, d_e<8>, l_x<16>>& X,  // (d_e, l_x)
                  mat<float, d_e<8>, l_z<16>>& Z) {      // (d_e, l_z)
    copy(X, Z);  // error here
}
