// Mistake: a view over the context length l_z taken of the primary stream X (over l_x).
// A mat_view names its dimensions like the matrix it views; the stream X runs over l_x, and a view
// over l_z of it would let Algorithm 4 read X where it means Z. Views are aggregates without
// constructors, so this is C++'s own conversion error, which names both types on its first line.
// Fix: relabel<d_e<8>, l_z<16>>(X) if the relabelling is meant.
// fixed: mat_view<float, d_e<8>, l_z<16>> Z = X; => mat_view<float, d_e<8>, l_x<16>> Z = X;
// expect: mat_view<float, typeformer::d_e<8>, typeformer::l_z<16>
// first-error: mat<float, typeformer::d_e<8>, typeformer::l_x<16>, mat_view<float, typeformer::d_e<8>, typeformer::l_z<16>
// max-lines: 4
// clang-max-lines: 14
// clang-first-error: mat<float, d_e<8>, l_x<16>>, mat_view<float, d_e<8>, l_z<16>>
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void attend_to(mat<float, d_e<8>, l_x<16>>& X) {
    mat_view<float, d_e<8>, l_z<16>> Z = X;  // error here
    (void)Z;
}
