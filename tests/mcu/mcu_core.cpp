// Microcontroller compile check: the dims, tensors and typed kernels on small static tensors,
// built by tests/mcu/CMakeLists.txt with arm-none-eabi-g++ for a Cortex-M4F (newlib,
// -fno-exceptions -fno-rtti). It must take the scalar kernels, allocate nothing and compile
// cleanly; the object is then scanned for heap and exception symbols.
//
//   W (d_attn, d_e), X (d_e, l_x), Q (d_attn, l_x), S (l_x, l_x), logits (N_V, l_x)
#include <typeformer/kernels.hpp>
#include <typeformer/tensor.hpp>
#include <typeformer/token.hpp>

static_assert(TYPEFORMER_SIMD == 0, "a bare-metal (newlib) build must take the scalar kernels");

namespace tf = typeformer;

namespace {

using d_e = tf::d_e<16>;
using d_attn = tf::d_attn<8>;
using l_x = tf::l_x<12>;
using N_V = tf::N_V<10>;

// Parameters are constant-initialised aggregates: they land in .rodata (flash).
// (Members, not globals: newlib's <math.h> declares ::gamma.)
struct params {
    tf::mat<float, d_attn, d_e> W;
    tf::vec<float, d_e> gamma, beta;
    tf::mat<float, N_V, d_e> W_u;
};
constexpr params theta{};

// Activations are static RAM of a size fixed at compile time.
tf::mat<float, d_e, l_x> X;
tf::mat<float, d_e, l_x> X_norm;
tf::mat<float, d_attn, l_x> Q;
tf::mat<float, l_x, l_x> S;
tf::mat<float, N_V, l_x> logits;
tf::vec<float, l_x> mean, rstd;
tf::token targets[12];

}  // namespace

// One token block of a tiny model; returns the loss.
extern "C" float typeformer_mcu_step(unsigned n) {
    X.resize_cols(n);
    X_norm.resize_cols(n);
    Q.resize_cols(n);
    S.resize_rows(n);
    S.resize_cols(n);
    logits.resize_cols(n);
    tf::layer_norm(X, theta.gamma, theta.beta, 1e-5f, X_norm, mean, rstd);
    tf::matmul(theta.W, X_norm, Q);                                  // Q ← W·X̃
    tf::matmul(tf::transpose(Q), Q, S);                              // S ← QᵀQ
    tf::softmax_columns(S, 0.35355339f, tf::mask_unidirectional{});  // 1/sqrt(d_attn)
    tf::gelu(X_norm, X_norm);
    tf::matmul(theta.W_u, X_norm, logits);
    return tf::cross_entropy(logits, std::span<const tf::token>(targets, n));
}
