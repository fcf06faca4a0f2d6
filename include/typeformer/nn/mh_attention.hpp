// Algorithm 5: Ṽ ← MHAttention(X, Z | W, Mask), H heads of Algorithm 4 and an output projection.
//
//   X    (d_x, l_x)            Z (d_z, l_z)           (self-attention: Z = X, the same tensor)
//   W_q  (H·d_attn, d_x)       b_q (H·d_attn)         Q = [Q^1; …; Q^H]  (H·d_attn, l_x)
//   W_k  (H·d_attn, d_z)       b_k (H·d_attn)         K = [K^1; …; K^H]  (H·d_attn, l_z)
//   W_v  (H·d_mid, d_z)        b_v (H·d_mid)          V = [V^1; …; V^H]  (H·d_mid, l_z)
//   A^h = softmax(K^hᵀQ^h/√d_attn)  (l_z, l_x)        Y = [Y^1; …; Y^H]  (H·d_mid, l_x)
//   W_o  (d_out, H·d_mid)      b_o (d_out)            Ṽ (d_out, l_x)
//
// H·d is prod<H, d>: head h is rows [h·d, (h+1)·d), so the paper's W_q^h is head(W_q, h) and the
// per-head projections of Algorithm 4's lines 1–3 are ONE product for all heads. Each head then
// runs Algorithm 4's lines 4–6 (nn/attention.hpp's detail core) on the views head(Q, h),
// head(K, h), head(V, h) and writes head(Y, h): line 3's vertical stacking costs nothing.
//
// Incremental decoding (a KV cache) can reuse this layout: K and V keep one column per position,
// so a step projects one new column of X, appends its k, v columns, and runs the core per head on
// that one query column against K, V's first columns with mask_unidirectional{offset = position}.
#pragma once

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>

#include <boost/hana/define_struct.hpp>

#include "../shape_error.hpp"  // first: an error's note then names only this include

#include "../kernels.hpp"
#include "../tensor.hpp"
#include "attention.hpp"
#include "gradient.hpp"
#include "operands.hpp"

namespace typeformer::nn {

// The parameters W of Algorithm 5; Heads is the dimension H<n>. d_attn, d_mid, d_out are
// independent of each other and of d_x / H.
template <class T, fixed_dimension Dx, fixed_dimension Dz, fixed_dimension Dattn,
          fixed_dimension Dmid, fixed_dimension Dout, fixed_dimension Heads>
struct MHAttention {
    using value_type = T;
    using x_dim = Dx;
    using z_dim = Dz;
    using attn_dim = Dattn;
    using mid_dim = Dmid;
    using out_dim = Dout;
    using heads_dim = Heads;
    using qk_dim = prod<Heads, Dattn>;  // H·d_attn, head-major
    using v_dim = prod<Heads, Dmid>;    // H·d_mid, head-major
    static constexpr std::size_t n_heads = Heads::size;

    using W_q_type = mat<T, qk_dim, Dx>;  // Hana's macro cannot take commas
    using b_q_type = vec<T, qk_dim>;
    using W_k_type = mat<T, qk_dim, Dz>;
    using b_k_type = vec<T, qk_dim>;
    using W_v_type = mat<T, v_dim, Dz>;
    using b_v_type = vec<T, v_dim>;
    using W_o_type = mat<T, Dout, v_dim>;
    using b_o_type = vec<T, Dout>;
    BOOST_HANA_DEFINE_STRUCT(MHAttention, (W_q_type, W_q), (b_q_type, b_q), (W_k_type, W_k),
                             (b_k_type, b_k), (W_v_type, W_v), (b_v_type, b_v), (W_o_type, W_o),
                             (b_o_type, b_o));

    // What backward needs besides the inputs X, Z; sized at the lengths' capacities.
    template <dimension Lx, dimension Lz>
    struct cache {
        mat<T, qk_dim, Lx> Q;                       // Alg. 4 line 1, all heads     (H·d_attn, l_x)
        mat<T, qk_dim, Lz> K;                       // Alg. 4 line 2, all heads     (H·d_attn, l_z)
        mat<T, v_dim, Lz> V;                        // Alg. 4 line 3, all heads     (H·d_mid, l_z)
        std::array<mat<T, Lz, Lx>, Heads::size> A;  // A^h = softmax(S^h/√d_attn), masked → 0
        mat<T, v_dim, Lx> Y;  // 3: [Y^1; …; Y^H]             (H·d_mid, l_x)
    };
    // Forward-only working memory (an inference workspace): Q, K, V, Y as in cache, but no A^h —
    // each head's lines 4–6 run in tiles with an online softmax (attention.hpp), so nothing here
    // grows with l_x·l_z; the tile serves the heads one after the other.
    template <dimension Lx, dimension Lz>
    struct inference_cache {
        mat<T, qk_dim, Lx> Q;  // Alg. 4 line 1, all heads                       (H·d_attn, l_x)
        mat<T, qk_dim, Lz> K;  // Alg. 4 line 2, all heads                       (H·d_attn, l_z)
        mat<T, v_dim, Lz> V;   // Alg. 4 line 3, all heads                       (H·d_mid, l_z)
        mat<T, v_dim, Lx> Y;   // 3: [Y^1; …; Y^H]                              (H·d_mid, l_x)
        detail::attention_tile_for<T, Lx, Lz> tile;  // lines 4–6 of one head, one tile at a time
    };
    // Backward's working memory; its contents mean nothing between calls, so one scratch can
    // serve every layer of a model. dA, dS serve one head at a time.
    template <dimension Lx, dimension Lz>
    struct scratch {
        mat<T, v_dim, Lx> dY;
        mat<T, qk_dim, Lx> dQ;
        mat<T, qk_dim, Lz> dK;
        mat<T, v_dim, Lz> dV;
        mat<T, Lz, Lx> dA, dS;
    };
};

inline namespace typed {}  // namespace typed

namespace detail {
// What forward(MHAttention, …) may keep its activations in: the cache backward reads (A^h
// included), or the inference cache (no A^h, the heads' attention in tiles).
template <class C, class Attn, class Lx, class Lz>
concept mh_attention_cache_for = std::is_same_v<C, typename Attn::template cache<Lx, Lz>> ||
    std::is_same_v<C, typename Attn::template inference_cache<Lx, Lz>>;
}  // namespace detail

namespace detail {
// Algorithm 5, then `out` on Ṽ (+ R (d_out, l_x): a residual, or nothing). Each product's bias
// (and R) is its fused epilogue (kernels/scalar/gemm.hpp): added to each register tile as it is
// finished, the same operations per entry as add_bias and axpy after it.
template <class T, class Dx, class Dz, class Dattn, class Dmid, class Dout, class Heads, class XV,
          class ZV, class Mask, class VM, class Cache>
constexpr void mh_attention_forward(const MHAttention<T, Dx, Dz, Dattn, Dmid, Dout, Heads>& p,
                                    const XV& Xv, const ZV& Zv, Mask mask, VM&& Vt, Cache& c,
                                    kernels::gemm_epilogue<T> out) noexcept {
    using kernels::detail::matmul_impl;
    constexpr kernels::gemm_epilogue<T> none{};
    const std::size_t l_x = Xv.cols(), l_z = Zv.cols();
    TYPEFORMER_CHECK(as_view(Vt).cols() == l_x, "MHAttention: Ṽ must have X's number of columns");
    attention_resize(c.Q, Heads::size * Dattn::size, l_x);
    attention_resize(c.K, Heads::size * Dattn::size, l_z);
    attention_resize(c.V, Heads::size * Dmid::size, l_z);
    attention_resize(c.Y, Heads::size * Dmid::size, l_x);
    if constexpr (requires { c.A; })
        for (auto& A : c.A)
            attention_resize(A, l_z, l_x);

    // 2, Alg. 4 lines 1–3 for every head at once: Q^h ← W_q^h X + b_q^h 1ᵀ is head(Q, h), …
    // Q ← W_q X + b_q 1ᵀ (H·d_attn, l_x), K ← W_k Z + b_k 1ᵀ (H·d_attn, l_z),
    // V ← W_v Z + b_v 1ᵀ (H·d_mid, l_z)
    matmul_impl(p.W_q, Xv, c.Q, false, {}, none.with_bias(p.b_q.data()));
    matmul_impl(p.W_k, Zv, c.K, false, {}, none.with_bias(p.b_k.data()));
    matmul_impl(p.W_v, Zv, c.V, false, {}, none.with_bias(p.b_v.data()));
    for (std::size_t h = 0; h < Heads::size; ++h) {  // 1: for h ∈ [H]
        // 2: Y^h ← Attention(X, Z | W_qkv^h, Mask), lines 4–6;  3: Y^h is a block of Y
        if constexpr (requires { c.A; })  // A^h kept for backward
            attention_core_forward(head(attention_cview(c.Q), h), head(attention_cview(c.K), h),
                                   head(attention_cview(c.V), h), mask, as_view(c.A[h]),
                                   head(c.Y, h));
        else  // forward only: in tiles, no A^h
            attention_core_forward_tiled(head(attention_cview(c.Q), h),
                                         head(attention_cview(c.K), h),
                                         head(attention_cview(c.V), h), mask, head(c.Y, h), c.tile);
    }
    // 4: Ṽ ← W_o Y + b_o 1ᵀ (+ R)                                                 (d_out, l_x)
    matmul_impl(p.W_o, c.Y, Vt, false, {}, out.with_bias(p.b_o.data()));
}

// Backward of line 4 for the heads whose rows of Y are [c0, c1) (all of them, or one), in its two
// halves: dY[c0:c1] = W_o[:, c0:c1]ᵀ dṼ, then W_o[:, c0:c1]'s gradient dṼ Y[c0:c1]ᵀ to the sink g
// (after W_o's read; Y is scratch afterwards). b_o's gradient is the caller's (once for all heads).
template <class Wo, class DVv, class DYv>
constexpr void output_projection_dY(const Wo& W_o, std::size_t c0, std::size_t c1, const DVv& dVt,
                                    const DYv& dY) noexcept {
    matmul(transpose(cols(W_o, c0, c1)), dVt, dY);  // 4: dY = W_oᵀ dṼ          (H·d_mid, l_x)
}
template <class DVv, class Yv, class G>
constexpr void output_projection_grad(std::size_t c0, std::size_t c1, const DVv& dVt, const Yv& Y,
                                      const G& g) noexcept {
    g.update(leaf::W_o, [&](auto dW, auto a) {  // 4: dW_o += dṼ Yᵀ
        scale_scratch(Y, a);
        matmul_add(dVt, transpose(Y), cols(dW, c0, c1));
    });
}

// Backward of Algorithm 5 into the sink g from the forward's cache: ACCUMULATES into dX, dZ.
template <class T, class Dx, class Dz, class Dattn, class Dmid, class Dout, class Heads, class Xv,
          class Zv, class Mask, class DVv, class DXv, class DZv, class G, class C, class S>
void mh_attention_backward(const MHAttention<T, Dx, Dz, Dattn, Dmid, Dout, Heads>& p, const Xv& X,
                           const Zv& Z, Mask mask, const DVv& dVt, const DXv& dX, const DZv& dZ,
                           const G& g, const C& c, S& s) noexcept {
    constexpr std::size_t qk = Heads::size * Dattn::size, v = Heads::size * Dmid::size;
    g.update(leaf::b_o, [&](auto db, auto) { add_bias_grad(dVt, db); });  // 4: db_o += dṼ 1
    output_projection_dY(p.W_o, 0, v, dVt, s.dY.view());
    output_projection_grad(0, v, dVt, c.Y.view(), g);
    for (std::size_t h = 0; h < Heads::size; ++h)  // 3–1: dY^h = head(dY, h) → dQ^h, dK^h, dV^h
        attention_core_backward(head(attention_cview(c.Q), h), head(attention_cview(c.K), h),
                                head(attention_cview(c.V), h), attention_cview(c.A[h]), mask,
                                head(attention_cview(s.dY), h), head(s.dQ, h), head(s.dK, h),
                                head(s.dV, h), as_view(s.dA), as_view(s.dS));
    // 2, Alg. 4 lines 3–1 for every head at once: db += dQ 1, dZ += Wᵀ dQ, dW += dQ Zᵀ, …
    projection_backward(p.W_v, leaf::W_v, leaf::b_v, 0, v, Z, s.dV.view(), dZ, g);
    projection_backward(p.W_k, leaf::W_k, leaf::b_k, 0, qk, Z, s.dK.view(), dZ, g);
    projection_backward(p.W_q, leaf::W_q, leaf::b_q, 0, qk, X, s.dQ.view(), dX, g);
}
}  // namespace detail

inline namespace typed {

// Algorithm 5. Ṽ's run-time extent (l_x columns) is set by the caller; self-attention passes
// the same tensor as X and Z. c is the cache backward reads, or an inference_cache (forward only:
// the heads' attention in tiles, no A^h).
template <class T, class Dx, class Dz, class Dattn, class Dmid, class Dout, class Heads, class XM,
          class ZM, softmax_mask Mask, class VM, class Cache>
    requires attention_operands<T, Dx, Dz, Dout, XM, ZM, VM> &&
        detail::mh_attention_cache_for<Cache, MHAttention<T, Dx, Dz, Dattn, Dmid, Dout, Heads>,
                                       detail::cols_of<XM>, detail::cols_of<ZM>>
constexpr void forward(const MHAttention<T, Dx, Dz, Dattn, Dmid, Dout, Heads>& p, const XM& X,
                       const ZM& Z, Mask mask, VM&& Vt, Cache& c) noexcept {
    detail::mh_attention_forward(p, as_view(X), as_view(Z), mask, Vt, c,
                                 kernels::gemm_epilogue<T>{});
}

// Ṽ ← R + MHAttention(X, Z): a block's residual add (Algorithm 10, line 6) done in the output
// projection's epilogue. R (d_out, l_x) must not share storage with Ṽ.
template <class T, class Dx, class Dz, class Dattn, class Dmid, class Dout, class Heads, class XM,
          class ZM, softmax_mask Mask, class VM, class Cache, class RM>
    requires attention_operands<T, Dx, Dz, Dout, XM, ZM, VM> &&
        detail::mh_attention_cache_for<Cache, MHAttention<T, Dx, Dz, Dattn, Dmid, Dout, Heads>,
                                       detail::cols_of<XM>, detail::cols_of<ZM>> &&
        matrix_operand<RM> && rows_are<detail::rows_of<RM>, Dout> &&
        same_columns<detail::cols_of<RM>, detail::cols_of<XM>> &&
        same_value_type<detail::value_of<RM>, T>
constexpr void forward(const MHAttention<T, Dx, Dz, Dattn, Dmid, Dout, Heads>& p, const XM& X,
                       const ZM& Z, Mask mask, VM&& Vt, Cache& c, const RM& R) noexcept {
    const auto r = kernels::detail::raw_of(R);
    TYPEFORMER_CHECK(r.cols == as_view(X).cols(), "MHAttention: R must have X's number of columns");
    TYPEFORMER_CHECK(r.ptr != kernels::detail::raw_of(Vt).ptr,
                     "MHAttention: the residual R shares Ṽ's storage");
    detail::mh_attention_forward(p, as_view(X), as_view(Z), mask, Vt, c,
                                 kernels::gemm_epilogue<T>{}.with_residual(r.ptr, r.ld));
}

// Backward of Algorithm 5: ACCUMULATES (+=) into dX, dZ and grads. Self-attention passes the
// same tensor as X and Z and the same buffer as dX and dZ. `mask` is the forward's: its zeros are
// in the cached A^h, and a causal one lets the products skip the masked half.
template <class T, class Dx, class Dz, class Dattn, class Dmid, class Dout, class Heads, class XM,
          class ZM, softmax_mask Mask, class DVM, class DXM, class DZM>
    requires attention_grad_operands<T, Dx, Dz, Dout, XM, ZM, DVM, DXM, DZM>
void backward(const MHAttention<T, Dx, Dz, Dattn, Dmid, Dout, Heads>& p, const XM& X, const ZM& Z,
              Mask mask, const DVM& dVt, DXM&& dX, DZM&& dZ,
              MHAttention<T, Dx, Dz, Dattn, Dmid, Dout, Heads>& grads,
              const typename MHAttention<T, Dx, Dz, Dattn, Dmid, Dout, Heads>::template cache<
                  detail::cols_of<XM>, detail::cols_of<ZM>>& c,
              typename MHAttention<T, Dx, Dz, Dattn, Dmid, Dout, Heads>::template scratch<
                  detail::cols_of<XM>, detail::cols_of<ZM>>& s) noexcept {
    const auto Xv = as_view(X);
    const auto Zv = as_view(Z);
    const std::size_t l_x = Xv.cols(), l_z = Zv.cols();
    TYPEFORMER_CHECK(c.Q.cols() == l_x && c.K.cols() == l_z,
                     "MHAttention backward: X, Z are not the forward's lengths");
    detail::attention_resize(s.dY, Heads::size * Dmid::size, l_x);
    detail::attention_resize(s.dQ, Heads::size * Dattn::size, l_x);
    detail::attention_resize(s.dK, Heads::size * Dattn::size, l_z);
    detail::attention_resize(s.dV, Heads::size * Dmid::size, l_z);
    detail::attention_resize(s.dA, l_z, l_x);
    detail::attention_resize(s.dS, l_z, l_x);

    detail::mh_attention_backward(
        p, Xv, Zv, mask, as_view(dVt), as_view(dX), as_view(dZ),
        detail::accumulate_into<MHAttention<T, Dx, Dz, Dattn, Dmid, Dout, Heads>, T>(grads), c, s);
}

}  // namespace typed

// ---- a mis-shaped call: one error naming both dimensions (shape_error.hpp) ----

template <class T, class Dx, class Dz, class Dattn, class Dmid, class Dout, class Heads, class... A>
    requires(!requires(const MHAttention<T, Dx, Dz, Dattn, Dmid, Dout, Heads>& p, A&&... a) {
        typed::forward(p, static_cast<A&&>(a)...);
    })
auto forward(const MHAttention<T, Dx, Dz, Dattn, Dmid, Dout, Heads>& p, A&&... args) noexcept
    -> decltype(typeformer::detail::shape_error_of<in::Algorithm_5_MHAttention>(
        detail::attention_forward_error<MHAttention<T, Dx, Dz, Dattn, Dmid, Dout, Heads>, T, Dx, Dz,
                                        Dout, W_o_rows<Dout>, A...>()));
template <class T, class Dx, class Dz, class Dattn, class Dmid, class Dout, class Heads, class... A>
    requires(!requires(const MHAttention<T, Dx, Dz, Dattn, Dmid, Dout, Heads>& p, A&&... a) {
        typed::backward(p, static_cast<A&&>(a)...);
    })
auto backward(const MHAttention<T, Dx, Dz, Dattn, Dmid, Dout, Heads>& p, A&&... args) noexcept
    -> decltype(typeformer::detail::shape_error_of<in::Algorithm_5_MHAttention_backward>(
        detail::attention_backward_error<MHAttention<T, Dx, Dz, Dattn, Dmid, Dout, Heads>, T, Dx,
                                         Dz, Dout, W_o_rows<Dout>, A...>()));

}  // namespace typeformer::nn
