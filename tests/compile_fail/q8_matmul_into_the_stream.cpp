// Mistake: the int8 first MLP product W_1 X written into the stream (d_e, l_x).
// W_1 (d_mlp, d_e) times X (d_e, ℓ) is (d_mlp, ℓ).
// Fix: C (d_mlp, l_x).
// fixed: mat<float, d_e<32>, l_x<8>>& pre => mat<float, d_mlp<128>, l_x<8>>& pre
// covers: matmul(C)
// expect: in::q8_matmul
// first-error: typeformer::C_rows<typeformer::d_e<32, typeformer::Wq_rows<typeformer::d_mlp<128
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

using namespace typeformer;

 void f(const q8_mat<d_mlp<128>, d_e<32>>& W_1q, const mat<float, d_e<32>, l_x<8>>& X, mat<float, d_e<32>, l_x<8>>& pre) {
     matmul(W_1q, X, pre);  // error here
 }
