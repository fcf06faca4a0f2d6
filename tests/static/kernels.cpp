// Static tests of the typed kernels' boundary (<typeformer/kernels.hpp>): which calls compile.
// Each probe is the requires-expression `requires { kernel(args...); }` over lvalues of the given
// types; a mistake must make it false (rejected at the call, by the kernel's named concept), the
// right form must make it true. Passes by compiling.
#include <cstddef>
#include <span>
#include <type_traits>
#include <utility>

#include <typeformer/kernels.hpp>
#include <typeformer/tensor.hpp>
#include <typeformer/token.hpp>

namespace {
using namespace typeformer;

// ---- probes ----
template <class A, class B, class C>
concept can_matmul = requires(A a, B b, C c) {
    matmul(a, b, c);
};
template <class A, class B, class C>
concept can_matmul_add = requires(A a, B b, C c) {
    matmul_add(a, b, c);
};
template <class A, class X, class Y>
concept can_matvec = requires(A a, X x, Y y) {
    matvec(a, x, y);
};
template <class A, class X, class Y>
concept can_matvec_add = requires(A a, X x, Y y) {
    matvec_add(a, x, y);
};
template <class Y, class B>
concept can_add_bias = requires(Y y, B b) {
    add_bias(y, b);
};
template <class DY, class DB>
concept can_add_bias_grad = requires(DY dy, DB db) {
    add_bias_grad(dy, db);
};
template <class X, class Y>
concept can_axpy = requires(X x, Y y) {
    axpy(1, x, y);
};
template <class X>
concept can_scale = requires(X x) {
    scale(x, 2);
};
template <class S, class Mask>
concept can_softmax = requires(S s, Mask m) {
    softmax_columns(s, 1, m);
};
template <class A, class DA, class DS>
concept can_softmax_backward = requires(A a, DA da, DS ds) {
    softmax_columns_backward(a, da, 1, ds);
};
template <class X, class G, class B, class Y, class M, class R>
concept can_layer_norm = requires(X x, G g, B b, Y y, M m, R r) {
    layer_norm(x, g, b, 1e-5, y, m, r);
};
template <class DY, class X, class G, class M, class R, class DX, class DG, class DB>
concept can_layer_norm_backward = requires(DY dy, X x, G g, M m, R r, DX dx, DG dg, DB db) {
    layer_norm_backward(dy, x, g, m, r, dx, dg, db);
};
template <class X, class G, class Y, class R>
concept can_rms_norm = requires(X x, G g, Y y, R r) {
    rms_norm(x, g, 1e-5, y, r);
};
template <class X, class Y>
concept can_gelu = requires(X x, Y y) {
    gelu(x, y);
};
template <class X, class DY, class DX>
concept can_gelu_backward = requires(X x, DY dy, DX dx) {
    gelu_backward(x, dy, dx);
};
template <class X, class Y>
concept can_relu = requires(X x, Y y) {
    relu(x, y);
};
template <class L>
concept can_cross_entropy = requires(L l, std::span<const token> t) {
    cross_entropy(l, t);
};
template <class L, class DL>
concept can_cross_entropy_backward = requires(L l, std::span<const token> t, DL dl) {
    cross_entropy_backward(l, t, dl);
};

// transpose(M) of an lvalue M, as written at a call site
template <class M>
using Tr = decltype(transpose(std::declval<M&>()));

// ---- the shapes of Algorithm 4 (Attention) and friends; sizes pairwise distinct except where
//      a test needs equal sizes with different meanings (d_attn = d_mid = 16) ----
using F = float;
using W_q_t = mat<F, d_attn<16>, d_x<8>>;   // (d_attn, d_x)
using W_k_t = mat<F, d_attn<16>, d_z<12>>;  // (d_attn, d_z)
using W_v_t = mat<F, d_mid<16>, d_z<12>>;   // (d_out = d_mid here, d_z)
using X_t = mat<F, d_x<8>, l_x<4>>;         // (d_x, l_x)
using Z_t = mat<F, d_z<12>, l_z<6>>;        // (d_z, l_z)
using Q_t = mat<F, d_attn<16>, l_x<4>>;     // (d_attn, l_x)
using K_t = mat<F, d_attn<16>, l_z<6>>;     // (d_attn, l_z)
using V_t = mat<F, d_mid<16>, l_z<6>>;      // (d_mid, l_z)
using S_t = mat<F, l_z<6>, l_x<4>>;         // (l_z, l_x)
using Vt_t = mat<F, d_mid<16>, l_x<4>>;     // (d_mid, l_x)  Ṽ = V·A
using b_q_t = vec<F, d_attn<16>>;           // (d_attn)
using b_v_t = vec<F, d_mid<16>>;            // (d_mid)

// ---- matmul: C ← A·B needs A's cols = B's rows, C = (A's rows, B's cols) ----
static_assert(can_matmul<const W_q_t, const X_t, Q_t>);     // 1: Q ← W_q X
static_assert(can_matmul<const W_k_t, const Z_t, K_t>);     // 2: K ← W_k Z
static_assert(can_matmul<Tr<const K_t>, const Q_t, S_t>);   // 4: S ← Kᵀ Q        (Aᵀ·B)
static_assert(can_matmul<const V_t, const S_t, Vt_t>);      // 6: Ṽ ← V·A
static_assert(can_matmul<const Vt_t, Tr<const S_t>, V_t>);  //    dV ← dṼ·Aᵀ      (A·Bᵀ)
// views, const views and head views are operands like owning tensors
static_assert(can_matmul<mat_view<const F, d_attn<16>, d_x<8>>, mat_view<F, d_x<8>, l_x<4>>,
                         mat_view<F, d_attn<16>, l_x<4>>>);
using W_qH_t = mat<F, prod<H<2>, d_attn<16>>, d_x<8>>;  // MHAttention's W_q (H·d_attn, d_x)
using W_qh_t = decltype(head<1>(std::declval<const W_qH_t&>()));
static_assert(std::is_same_v<W_qh_t, mat_view<const F, d_attn<16>, d_x<8>>>);
static_assert(can_matmul<W_qh_t, const X_t, Q_t>);  // one head's Q^h ← W_q^h X
static_assert(can_matmul<const W_qH_t, const X_t, mat<F, prod<H<2>, d_attn<16>>, l_x<4>>>);
static_assert(!can_matmul<const W_qH_t, const X_t, Q_t>);  // the stack is not one head
// inner dims: meaning, not size
static_assert(!can_matmul<const W_q_t, const Z_t, Q_t>);    // d_x·d_z
static_assert(!can_matmul<Tr<const V_t>, const Q_t, S_t>);  // d_mid<16>ᵀ·d_attn<16>: equal sizes
static_assert(!can_matmul<const mat<F, N_V<32>, d_e<8>>, const mat<F, d_f<12>, l_x<4>>,
                          mat<F, N_V<32>, l_x<4>>>);  // Algorithm 9's W_u X
static_assert(!can_matmul<const mat<F, N_V<32>, d_e<8>>, const mat<F, d_f<8>, l_x<4>>,
                          mat<F, N_V<32>, l_x<4>>>);  // ... even when d_f = d_e = 8
// the result's shape is the product's
static_assert(!can_matmul<const W_q_t, const X_t, Vt_t>);  // rows d_mid for d_attn
static_assert(!can_matmul<const W_k_t, const Z_t, mat<F, d_attn<16>, l_x<6>>>);  // l_x for l_z
static_assert(!can_matmul<Tr<const K_t>, const Q_t, mat<F, l_x<4>, l_z<6>>>);    // Sᵀ for S
// transposed forms: Aᵀ·B and A·Bᵀ swap the operand's dims; Aᵀ·Bᵀ is not offered
static_assert(can_matmul<Tr<const W_q_t>, const Q_t, X_t>);  // dX ← W_qᵀ dQ
static_assert(!can_matmul<const W_q_t, const Q_t, X_t>);     // ... not W_q dQ
static_assert(can_matmul<const Q_t, Tr<const X_t>, W_q_t>);  // dW_q ← dQ Xᵀ: the parameter's type
static_assert(!can_matmul<const Q_t, const X_t, W_q_t>);
static_assert(!can_matmul<Tr<const X_t>, Tr<const Q_t>, mat<F, l_x<4>, l_x<4>>>);  // Aᵀ·Bᵀ
static_assert(can_matmul<const Q_t, Tr<const Q_t>, mat<F, d_attn<16>, d_attn<16>>>);
// the output must be writable, the scalar types must agree. A const owning output is rejected by
// the `writable` rule only if the requires-clause sees C's const: it must test
// std::remove_reference_t<C>, not std::remove_cvref_t<C> (which strips the const).
static_assert(!can_matmul<const W_q_t, const X_t, const Q_t>);
static_assert(!can_matmul<const W_q_t, const X_t, mat_view<const F, d_attn<16>, l_x<4>>>);
static_assert(can_matmul<const W_q_t, const X_t, mat_view<F, d_attn<16>, l_x<4>>>);
static_assert(!can_matmul<const W_q_t, const X_t, mat<double, d_attn<16>, l_x<4>>>);
static_assert(!can_matmul<const mat<double, d_attn<16>, d_x<8>>, const X_t, Q_t>);
static_assert(can_matmul<const mat<double, d_attn<16>, d_x<8>>, const mat<double, d_x<8>, l_x<4>>,
                         mat<double, d_attn<16>, l_x<4>>>);
// matmul_add (C += A·B) follows the same rules
static_assert(can_matmul_add<Tr<const W_q_t>, const Q_t, X_t>);
static_assert(!can_matmul_add<const W_q_t, const Q_t, X_t>);
static_assert(!can_matmul_add<const W_q_t, const X_t, const Q_t>);  // const output (see matmul)

// ---- matvec: y ← A·x (Algorithm 3, one token) ----
using e_t = vec<F, d_x<8>>;  // (d_x)
static_assert(can_matvec<const W_q_t, const e_t, b_q_t>);
static_assert(can_matvec<const W_q_t, vec_view<const F, d_x<8>>, vec_view<F, d_attn<16>>>);
static_assert(
    can_matvec<const W_q_t, decltype(std::declval<const X_t&>().col(0)), b_q_t>);  // x_t = X[:, t]
static_assert(can_matvec<Tr<const W_q_t>, const b_q_t, e_t>);
static_assert(!can_matvec<const W_q_t, const vec<F, d_e<8>>, b_q_t>);  // d_e for d_x, equal sizes
static_assert(!can_matvec<const W_q_t, const e_t, b_v_t>);             // y over d_mid
static_assert(!can_matvec<const W_q_t, const e_t, const b_q_t>);       // const output (see matmul)
static_assert(can_matvec_add<Tr<const W_q_t>, const b_q_t, e_t> &&
              !can_matvec_add<const W_q_t, const b_q_t, e_t>);

// ---- bias: b's dim is Y's row dim ----
static_assert(can_add_bias<Q_t, const b_q_t>);
static_assert(!can_add_bias<Vt_t, const b_q_t>);  // b_q (d_attn) onto (d_mid, ·): equal sizes
static_assert(!can_add_bias<Q_t, const vec<F, l_x<4>>>);
static_assert(!can_add_bias<const Q_t, const b_q_t> &&
              !can_add_bias<mat_view<const F, d_attn<16>, l_x<4>>, const b_q_t>);
using bH_t = vec<F, prod<H<2>, d_attn<16>>>;  // MHAttention's b_q (H·d_attn)
static_assert(can_add_bias<mat<F, prod<H<2>, d_attn<16>>, l_x<4>>, const bH_t>);
static_assert(can_add_bias<Q_t, decltype(head_of_vec(std::declval<const bH_t&>(), 0))>);  // b_q^h
static_assert(can_add_bias_grad<const Q_t, b_q_t> && !can_add_bias_grad<const Q_t, b_v_t>);
static_assert(!can_add_bias_grad<const Q_t, const b_q_t>);

// ---- elementwise: same dims in the same order ----
using E_t = mat<F, d_e<8>, l_x<4>>;     // (d_e, l_x) the residual stream
using M_t = mat<F, d_mlp<32>, l_x<4>>;  // (d_mlp, l_x)
static_assert(can_axpy<const E_t, E_t> && can_axpy<const b_q_t, b_q_t>);
static_assert(!can_axpy<const E_t, M_t>);                     // residual into the MLP width
static_assert(!can_axpy<const E_t, mat<F, d_e<8>, l_z<4>>>);  // l_x into l_z
static_assert(!can_axpy<const E_t, mat<F, l_x<4>, d_e<8>>>);  // transposed
static_assert(!can_axpy<const b_q_t, b_v_t>);                 // d_attn into d_mid
static_assert(!can_axpy<const E_t, vec<F, d_e<8>>>);          // a matrix into a vector
static_assert(!can_axpy<const E_t, const E_t>);
static_assert(can_scale<E_t> && !can_scale<const E_t> &&
              !can_scale<mat_view<const F, d_e<8>, l_x<4>>>);

// ---- softmax over columns ----
static_assert(can_softmax<S_t, mask_bidirectional> && can_softmax<S_t, mask_unidirectional>);
static_assert(!can_softmax<const S_t, mask_bidirectional>);
static_assert(!can_softmax<S_t, int>);  // a mask is a type, not a flag
static_assert(!can_softmax<b_q_t, mask_bidirectional>);
static_assert(can_softmax_backward<const S_t, const S_t, S_t>);
static_assert(
    !can_softmax_backward<const S_t, const mat<F, l_x<4>, l_z<6>>, S_t>);  // dA transposed
static_assert(!can_softmax_backward<const S_t, const S_t, mat<F, l_x<4>, l_z<6>>>);
static_assert(!can_softmax_backward<const S_t, const S_t, const S_t>);

// ---- layer norm (Algorithm 6) and RMSnorm: γ, β over the rows, mean, rstd over the columns ----
using g_t = vec<F, d_e<8>>;  // (d_e)
using m_t = vec<F, l_x<4>>;  // (l_x)
static_assert(can_layer_norm<const E_t, const g_t, const g_t, E_t, m_t, m_t>);
static_assert(
    !can_layer_norm<const E_t, const vec<F, d_mlp<32>>, const vec<F, d_mlp<32>>, E_t, m_t, m_t>);
static_assert(
    !can_layer_norm<const E_t, const g_t, const vec<F, d_mlp<32>>, E_t, m_t, m_t>);  // β only
static_assert(
    !can_layer_norm<const E_t, const g_t, const g_t, E_t, vec<F, l_z<4>>, vec<F, l_z<4>>>);
static_assert(!can_layer_norm<const E_t, const g_t, const g_t, M_t, m_t, m_t>);
static_assert(!can_layer_norm<const E_t, const g_t, const g_t, const E_t, m_t, m_t>);
static_assert(
    can_layer_norm_backward<const E_t, const E_t, const g_t, const m_t, const m_t, E_t, g_t, g_t>);
static_assert(!can_layer_norm_backward<const E_t, const E_t, const g_t, const m_t, const m_t, E_t,
                                       g_t, vec<F, d_mlp<32>>>);  // dβ over d_mlp
static_assert(can_rms_norm<const E_t, const g_t, E_t, m_t>);
static_assert(!can_rms_norm<const E_t, const vec<F, d_mlp<32>>, E_t, m_t>);

// ---- activations: same dims ----
static_assert(can_gelu<const M_t, M_t> && can_relu<const M_t, M_t> && can_gelu<const b_q_t, b_q_t>);
static_assert(!can_gelu<const M_t, E_t>);
static_assert(!can_relu<const M_t, const M_t>);  // const output (see matmul)
static_assert(can_gelu_backward<const M_t, const M_t, M_t>);
static_assert(!can_gelu_backward<const M_t, const E_t, M_t>);

// ---- cross-entropy: logits (N_V, l), dlogits the same ----
using P_t = mat<F, N_V<32>, l_x<4>>;  // (N_V, l_x)
static_assert(can_cross_entropy<const P_t> && !can_cross_entropy<const vec<F, N_V<32>>>);
static_assert(can_cross_entropy_backward<const P_t, P_t>);
static_assert(!can_cross_entropy_backward<const P_t, mat<F, N_V<32>, l_z<4>>>);
static_assert(!can_cross_entropy_backward<const P_t, const P_t>);

}  // namespace
