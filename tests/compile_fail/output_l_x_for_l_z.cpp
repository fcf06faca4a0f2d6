// Mistake: the keys of the context Z stored in a matrix over the primary length l_x.
// Algorithm 4, line 2: K ← W_k Z + b_k 1ᵀ ∈ R^{d_attn × l_z}; a (d_attn, l_x) output has the right
// capacity (6) but the wrong sequence.
// Fix: K over l_z: mat<float, d_attn<16>, l_z<6>>.
// gallery: 5
// fixed: mat<float, d_attn<16>, l_x<6>>& K => mat<float, d_attn<16>, l_z<6>>& K
// covers: matmul(c b)
// expect: in::matmul
// first-error: C_cols<typeformer::l_x<6>, B_cols<typeformer::l_z<6>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void keys(const mat<float, d_attn<16>, d_z<8>>& W_k,  // (d_attn, d_z)
          const mat<float, d_z<8>, l_z<6>>& Z,        // (d_z, l_z)
          mat<float, d_attn<16>, l_x<6>>& K) {        // (d_attn, l_x): should be (d_attn, l_z)
    matmul(W_k, Z, K);  // error here
}
