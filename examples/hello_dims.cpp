// Dimensions are types: size is an attribute, meaning is identity.
#include <cstdio>
#include <typeformer/typeformer.hpp>
namespace tf = typeformer;

using d_e = tf::d_e<8>;
using d_attn = tf::d_attn<4>;
using d_mid = tf::d_mid<4>;  // same size as d_attn, different meaning
using l_x = tf::l_x<16>;     // a sequence of at most 16 tokens

int main() {
    tf::mat<float, d_attn, d_e> W_q;                       // (d_attn, d_e)
    tf::mat<float, d_e, l_x> X;                            // (d_e, l_x): column t is token t
    tf::mat<float, d_attn, l_x> Q;                         // (d_attn, l_x)
    tf::mat<float, d_mid, l_x> V;                          // (d_mid, l_x)
    X.resize_cols(5), Q.resize_cols(5), V.resize_cols(5);  // five tokens this time
    tf::fill(W_q, 0.5f), tf::fill(X, 1.0f);

    tf::matmul(W_q, X, Q);  // Q ← W_q X: (d_attn, d_e)·(d_e, l_x) → (d_attn, l_x)
    // tf::matmul(W_q, Q, V);  ❌ inner dims: d_e<8> vs d_attn<4>
    // tf::axpy(1.0f, Q, V);   ❌ V += Q: d_mid<4> is not d_attn<4>
    auto Q_t = tf::relabel<d_mid, l_x>(Q);  // an explicit, greppable change of meaning
    tf::axpy(1.0f, Q_t, V);                 // V += Q, now well-typed

    std::printf("Q(0, 0) = %g, V(3, 4) = %g\n", Q(0, 0), V(3, 4));  // 4 and 4
    return Q(0, 0) == 4.0f && V(3, 4) == 4.0f ? 0 : 1;
}
