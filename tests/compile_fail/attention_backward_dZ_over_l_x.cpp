// Mistake: Algorithm 4's backward with ∂loss/∂Z accumulated into a buffer over l_x.
// dZ has Z's shape (d_z, l_z): every context position receives gradient through K and V; l_x and
// l_z both hold 8 tokens.
// Fix: dZ (d_z, l_z).
// fixed: mat<float, d_z<8>, l_x<8>>& dZ => mat<float, d_z<8>, l_z<8>>& dZ
// covers: nn::backward[Attention](dZ Z)
// expect: in::Algorithm_4_attention_backward
// first-error: dZ_cols<typeformer::l_x<8>, Z_cols<typeformer::l_z<8>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;
using attention = nn::Attention<float, d_x<8>, d_z<8>, d_attn<4>, d_out<8>>;

void cross_backward(const attention& a, const mat<float, d_x<8>, l_x<8>>& X,
                    const mat<float, d_z<8>, l_z<8>>& Z,
                    const mat<float, d_out<8>, l_x<8>>& dV_tilde, mat<float, d_x<8>, l_x<8>>& dX,
                    mat<float, d_z<8>, l_x<8>>& dZ, attention& grads,
                    const attention::cache<l_x<8>, l_z<8>>& c,
                    attention::scratch<l_x<8>, l_z<8>>& s) {
    nn::backward(a, X, Z, mask_bidirectional{}, dV_tilde, dX, dZ, grads, c, s);  // error here
}
