// Mistake: a residual connection added to the wrong stream.
// Algorithm 10, line 8 is X ← X + W_mlp2·GELU(W_mlp1·X̃ + b_mlp1) + b_mlp2: the residual lives in
// (d_e, l_x); here the (d_e, l_x) stream is added into the MLP's hidden activations (d_mlp, l_x).
// Fix: axpy(1.0f, X, Y) with Y the MLP's output (d_e, l_x).
// fixed: mat<float, d_mlp<32>, l_x<4>>& H => mat<float, d_e<8>, l_x<4>>& H
// covers: axpy(y x)
// expect: in::axpy
// first-error: y_rows<typeformer::d_mlp<32>, x_rows<typeformer::d_e<8>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void residual(const mat<float, d_e<8>, l_x<4>>& X,  // (d_e, l_x)
              mat<float, d_mlp<32>, l_x<4>>& H) {    // (d_mlp, l_x)
    axpy(1.0f, X, H);  // error here
}
