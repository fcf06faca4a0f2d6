// Mistake: dequantizing int8 weights into a double matrix for a reference computation.
// A q8_mat stands for float weights scale_i·q_ij; dequantize writes them into the float matrix of
// its shape, not a double one.
// Fix: dequantize into mat<float, ...>, then convert if double is wanted.
// fixed: mat<double, d_mlp<128>, d_e<32>>& W_1 => mat<float, d_mlp<128>, d_e<32>>& W_1
// covers: dequantize(W Wq)
// expect: in::dequantize
// first-error: W_scalar<double>, Wq_scalar<float>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/models/quantized.hpp>

using namespace typeformer;

void reference(const q8_mat<d_mlp<128>, d_e<32>>& W_1q, mat<double, d_mlp<128>, d_e<32>>& W_1) {
    dequantize(W_1q, W_1);  // error here
}
