// Mistake: the int8 W_1 (d_mlp, d_e) applied to the MLP's hidden activations instead of the stream.
// The MLP's first product W¹_mlp X maps the stream X (d_e, ℓ) to d_mlp; its input has d_e rows,
// its int8 form's columns.
// Fix: matmul(W_1q, X, pre) with X (d_e, l_x).
// fixed: const mat<float, d_mlp<128>, l_x<8>>& H => const mat<float, d_e<32>, l_x<8>>& H
// covers: matmul(Wq B)
// expect: in::q8_matmul
// first-error: B_rows<typeformer::d_mlp<128>, Wq_cols<typeformer::d_e<32>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

#include <typeformer/models/quantized.hpp>

using namespace typeformer;

void first_product(const q8_mat<d_mlp<128>, d_e<32>>& W_1q, const mat<float, d_mlp<128>, l_x<8>>& H,
                   mat<float, d_mlp<128>, l_x<8>>& pre) {
    matmul(W_1q, H, pre);  // error here
}
