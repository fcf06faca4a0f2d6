// Mistake: Algorithm 5 written by hand, a head's Y^h = V^h·A^h stored into the queries' stack.
// Q is [Q^1; …; Q^H] (H·d_attn, l_x) and Y is [Y^1; …; Y^H] (H·d_mid, l_x); d_attn = d_mid = 16,
// so head<0>(Q) has the right size for Y^0, and the wrong meaning.
// Fix: head<0>(Y), the value stack's block.
// fixed: mat<float, prod<H<2>, d_attn<16>>, l_x<8>>& Q => mat<float, prod<H<2>, d_mid<16>>, l_x<8>>& Q
// covers: matmul(c a)
// expect: in::matmul
// first-error: C_rows<typeformer::d_attn<16>, A_rows<typeformer::d_mid<16>
// max-lines: 9
// clang-max-lines: 7
#include <typeformer/typeformer.hpp>

using namespace typeformer;

void head_0(const mat<float, prod<H<2>, d_mid<16>>, l_z<8>>& V,  // [V^1; V^2] (H·d_mid, l_z)
            const mat<float, l_z<8>, l_x<8>>& A,                  // A^0 (l_z, l_x)
            mat<float, prod<H<2>, d_attn<16>>, l_x<8>>& Q) {      // [Q^1; Q^2] (H·d_attn, l_x)
    matmul(head<0>(V), A, head<0>(Q));  // error here: Y^0 ← V^0 A^0
}
