// Mistake: the MLP's activation (nn::gelu, the Act of nn::mlp) applied from its pre-activations into the stream.
// nn::gelu::forward is the same elementwise GELU as the kernel: its output has its input's (d_mlp,
// ℓ) shape.
// Fix: a (d_mlp, l_x) output; W_2 maps it to d_e.
// fixed: mat<float, d_e<32>, l_x<8>>& X => mat<float, d_mlp<128>, l_x<8>>& X
// covers: nn::gelu::forward(y x)
// expect: in::gelu
// first-error: Y_rows<typeformer::d_e<32>, X_rows<typeformer::d_mlp<128>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void activate(const mat<float, d_mlp<128>, l_x<8>>& pre, mat<float, d_e<32>, l_x<8>>& X) {
    nn::gelu::forward(pre, X);  // error here
}
