// Mistake: the MLP's backward given the gradient of its hidden activations as dY.
// The MLP maps (d_e, l_x) to (d_e, l_x); ∂loss/∂Y has Y's shape, while the (d_mlp, l_x) gradient is
// the block's own working memory (its scratch).
// Fix: backward(mlp, X, dY, dX, grads, cache, scratch) with dY (d_e, l_x).
// fixed: const mat<float, d_mlp<64>, l_x<8>>& dH => const mat<float, d_e<16>, l_x<8>>& dH
// covers: nn::backward[mlp](dY X)
// expect: in::MLP_backward
// first-error: dY_rows<typeformer::d_mlp<64>, X_rows<typeformer::d_e<16>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;
using MLP = nn::mlp<float, d_e<16>, d_mlp<64>, nn::relu>;

void block_backward(const MLP& mlp, const mat<float, d_e<16>, l_x<8>>& X,
                    const mat<float, d_mlp<64>, l_x<8>>& dH,  // (d_mlp, l_x)
                    mat<float, d_e<16>, l_x<8>>& dX, MLP& grads, const MLP::cache<l_x<8>>& c,
                    MLP::scratch<l_x<8>>& s) {
    nn::backward(mlp, X, dH, dX, grads, c, s);  // error here
}
