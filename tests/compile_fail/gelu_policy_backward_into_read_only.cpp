// Mistake: nn::gelu's backward accumulating into a const gradient.
// Backward adds dY ⊙ GELU′(X) into dX, which must be writable.
// Fix: a non-const dX.
// fixed: const hidden& d_pre => hidden& d_pre
// covers: nn::gelu::backward(dx x)
// expect: in::gelu_backward
// first-error: dX_is_read_only<typeformer::mat<float, typeformer::d_mlp<128>, typeformer::l_x<8>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;
using hidden = mat<float, d_mlp<128>, l_x<8>>;

void back(const hidden& pre, const hidden& d_act, const hidden& d_pre) {
    nn::gelu::backward(pre, d_act, d_pre);  // error here
}
