// Mistake: Algorithm 8's MLP activation (nn::relu) applied from the pre-activations into the stream.
// nn::relu::forward is the elementwise ReLU: output and input have one shape, (d_mlp, ℓ).
// Fix: a (d_mlp, l_x) output.
// fixed: mat<float, d_e<16>, l_x<8>>& X => mat<float, d_mlp<32>, l_x<8>>& X
// covers: nn::relu::forward(y x)
// expect: in::relu
// first-error: Y_rows<typeformer::d_e<16>, X_rows<typeformer::d_mlp<32>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void activate(const mat<float, d_mlp<32>, l_x<8>>& pre, mat<float, d_e<16>, l_x<8>>& X) {
    nn::relu::forward(pre, X);  // error here
}
