// Mistake: RMSnorm's backward given statistics over d_e where the forward saved one per column (l_x).
// rms_norm computes one rstd_t = 1/sqrt(mean(x_t²) + ε) per column t of X (d_e, ℓ): ℓ of them, not
// d_e.
// Fix: the forward's rstd, a vec over l_x.
// fixed: const vec<float, d_e<32>>& rstd => const vec<float, l_x<8>>& rstd
// covers: rms_norm_backward(rstd x)
// expect: in::rms_norm_kernel_backward
// first-error: rstd_rows<typeformer::d_e<32>, X_cols<typeformer::l_x<8>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void rms_backward(const mat<float, d_e<32>, l_x<8>>& dY, const mat<float, d_e<32>, l_x<8>>& X,
                  const vec<float, d_e<32>>& gamma, const vec<float, d_e<32>>& rstd,
                  mat<float, d_e<32>, l_x<8>>& dX, vec<float, d_e<32>>& dgamma) {
    rms_norm_backward(dY, X, gamma, rstd, dX, dgamma);  // error here
}
