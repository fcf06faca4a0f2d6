// Control: a well-shaped program that MUST compile with the harness's exact command.
// If it does not, the harness (compiler, flags, include dirs) is broken and the compile-fail
// cases prove nothing. It includes what the cases include and writes the correct form of each
// of their mistakes.
#include <typeformer/kernels.hpp>
#include <typeformer/nn/unembedding.hpp>
#include <typeformer/tensor.hpp>

using namespace typeformer;

// tensor.hpp: heads, relabel, copy, views
void tensors(mat<float, prod<H<4>, d_mid<16>>, l_x<8>>& Y,  // (H·d_mid, l_x)
             mat<float, d_attn<64>, l_x<8>>& K,              // (d_attn, l_x)
             const mat<float, d_e<8>, l_x<16>>& X,           // (d_e, l_x)
             mat<float, d_e<8>, l_z<16>>& Z,                 // (d_e, l_z)
             mat_view<float, d_e<8>, l_x<16>> Xw) {          // (d_e, l_x), writable
    auto Y_3 = head<3>(Y);                       // the last head
    auto V = relabel<d_mid<64>, l_x<8>>(K);      // equal sizes
    copy(relabel<d_e<8>, l_z<16>>(X), Z);        // l_x → l_z, explicitly
    Y_3(0, 0) = V(0, 0);
    Xw(0, 0) = 0.0f;
}

// kernels: the products, bias, residual, norm and softmax forms the cases get wrong
void kernels(const mat<float, d_attn<16>, d_x<8>>& W_q,  // (d_attn, d_x)
             const mat<float, d_x<8>, l_x<4>>& X,        // (d_x, l_x)
             mat<float, d_attn<16>, l_x<4>>& Q,          // (d_attn, l_x)
             mat<float, d_x<8>, l_x<4>>& dX,             // (d_x, l_x)
             const mat<float, d_attn<16>, d_z<8>>& W_k,  // (d_attn, d_z)
             const mat<float, d_z<8>, l_z<6>>& Z,        // (d_z, l_z)
             mat<float, d_attn<16>, l_z<6>>& K,          // (d_attn, l_z)
             mat<float, l_z<6>, l_x<4>>& S,              // (l_z, l_x)
             const vec<float, d_attn<16>>& b_q,          // (d_attn)
             const vec<float, d_x<8>>& gamma,            // (d_x)
             const vec<float, d_x<8>>& beta,             // (d_x)
             vec<float, l_x<4>>& mean, vec<float, l_x<4>>& rstd,  // (l_x)
             const unembedding<float, N_V<32>, d_f<12>>& u,  // W_u (N_V, d_f), Algorithm 9 corrected
             const mat<float, d_f<12>, l_x<4>>& Xf,      // (d_f, l_x)
             mat<float, N_V<32>, l_x<4>>& logits,        // (N_V, l_x)
             vec<float, d_attn<16>>& q) {                // (d_attn)
    matmul(W_q, X, Q);
    add_bias(Q, b_q);
    matmul_add(transpose(W_q), Q, dX);
    matmul(W_k, Z, K);
    matmul(transpose(K), Q, S);
    softmax_columns(S, 0.25f, mask_unidirectional{});
    softmax_columns_backward(S, S, 0.25f, S);
    axpy(1.0f, X, dX);
    layer_norm(X, gamma, beta, 1e-5f, dX, mean, rstd);
    forward(u, Xf, logits);
    matvec(W_q, X.col(0), q);
}
