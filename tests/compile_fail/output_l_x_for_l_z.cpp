// Mistake: the keys of the context Z stored in a matrix over the primary length l_x.
// Algorithm 4, line 2: K ← W_k Z + b_k 1ᵀ ∈ R^{d_attn × l_z}; a (d_attn, l_x)
// output has the right capacity (6) but the wrong sequence.
// expect: l_x<6>, l_z<6>, result_cols_match
// first-error: matmul, l_x<6>, l_z<6>
// max-lines: 20
#include <typeformer/kernels.hpp>

using namespace typeformer;

void keys(const mat<float, d_attn<16>, d_z<8>>& W_k,  // (d_attn, d_z)
          const mat<float, d_z<8>, l_z<6>>& Z,        // (d_z, l_z)
          mat<float, d_attn<16>, l_x<6>>& K) {        // (d_attn, l_x): should be (d_attn, l_z)
    matmul(W_k, Z, K);  // error here
}
