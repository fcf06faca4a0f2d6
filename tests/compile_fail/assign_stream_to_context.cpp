// Mistake: copying the decoder's stream X (d_e, l_x) into the context Z (d_e, l_z) by assignment.
// Algorithm 8 keeps two sequences apart: Z (d_e, ℓ_z) comes from the encoder, X (d_e, ℓ_x) is the
// decoder's stream; both are 8 long here, but l_x and l_z are different dimensions.
// Fix: relabel explicitly if that is meant: copy(relabel<d_e<8>, l_z<8>>(X), Z).
// fourteen: 12 assignment between tensors of different dimensions
// fixed: Z = X; => copy(relabel<d_e<8>, l_z<8>>(X), Z);
// covers: mat::operator=(y)
// expect: in::assign
// first-error: dst_cols<typeformer::l_z<8>, src_cols<typeformer::l_x<8>
// max-lines: 9
// clang-max-lines: 7
// gallery: 22
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void keep_context(const mat<float, d_e<8>, l_x<8>>& X, mat<float, d_e<8>, l_z<8>>& Z) {
    Z = X;  // error here
}
