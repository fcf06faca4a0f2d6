// Algorithm 4: Ṽ ← Attention(X, Z | W_qkv, Mask), one (masked) self- or cross-attention head.
//
//   X    (d_x, l_x)      primary sequence, one token per column
//   Z    (d_z, l_z)      context sequence (self-attention: Z = X, the same tensor twice)
//   W_q  (d_attn, d_x)   b_q (d_attn)     Q (d_attn, l_x)
//   W_k  (d_attn, d_z)   b_k (d_attn)     K (d_attn, l_z)
//   W_v  (d_out, d_z)    b_v (d_out)      V (d_out, l_z)
//   S, A = softmax(S/√d_attn)  (l_z, l_x)  column t_x is a distribution over t_z
//   Ṽ    (d_out, l_x)
//
// Lines 4–6 (scores, mask, softmax, V·A) and their backward live in detail::attention_core_*,
// which take (d, len) views with a leading dimension: MHAttention (Algorithm 5) runs the same
// code on each head's block of rows, and an incremental-decoding step runs it on one query
// column against the K, V columns of earlier positions (mask_unidirectional{offset}).
//
// Forward only (inference, the KV cache), attention_core_forward_tiled computes lines 4–6
// without A: FlashAttention's forward (Dao et al. 2022; the loop order of FlashAttention-2) takes
// the queries in blocks of B_x columns and, for each block, the keys in tiles of B_z with an
// online softmax — a running maximum m and sum ℓ per query, Ṽ rescaled by exp(m_old − m_new) as
// m grows and divided by ℓ at the end. Its scratch, attention_tile (B_z, B_x) with m, ℓ, α
// (B_x), does not grow with l_x·l_z. Training keeps attention_core_forward: backward needs A.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <type_traits>
#include <utility>

#include <boost/hana/define_struct.hpp>

#include "../shape_error.hpp"  // first: an error's note then names only this include

#include "../kernels.hpp"
#include "../tensor.hpp"
#include "gradient.hpp"
#include "operands.hpp"

namespace typeformer::nn {

namespace detail {

// A read-only view of a matrix, so the core's T deduces the same from every argument.
template <class M>
constexpr auto attention_cview(const M& m) noexcept {
    const auto v = as_view(m);
    using V = decltype(v);
    return mat_view<const typename V::value_type, typename V::rows_dim, typename V::cols_dim>{
        v.ptr, v.ld, v.n_rows, v.n_cols};
}

// Sets the run-time extents of a cache or scratch matrix (a fixed dimension must already agree).
template <class M>
constexpr void attention_resize(M& m, std::size_t rows, std::size_t cols) noexcept {
    if constexpr (bounded_dimension<typename M::rows_dim>)
        m.resize_rows(rows);
    else
        TYPEFORMER_CHECK(rows == M::rows_dim::size, "attention: length differs from a fixed dim");
    if constexpr (bounded_dimension<typename M::cols_dim>)
        m.resize_cols(cols);
    else
        TYPEFORMER_CHECK(cols == M::cols_dim::size, "attention: length differs from a fixed dim");
}

// 1/√d_attn, the score scale of line 6.
template <class T, class Dattn>
constexpr T attention_scale() noexcept {
    return T(1) / kernels::detail::cmath::sqrt(T(Dattn::size));
}

// What a causal mask (t_z ≤ t_x + offset) lets each product of lines 4–6 skip, about half of
// their work: the entries of S = KᵀQ and dA = VᵀdṼ above the mask's edge are not computed, and
// the sums of V·A, K·dS, dṼ·Aᵀ and Q·dSᵀ stop or start at the edge, where A and dS are exactly 0.
struct attention_bands {
    kernels::gemm_band scores, to_edge, from_edge;
};
constexpr attention_bands attention_bands_of(mask_bidirectional) noexcept {
    return {};
}
constexpr attention_bands attention_bands_of(mask_unidirectional mask) noexcept {
    using kind = kernels::gemm_band::kind;
    const auto o = static_cast<std::ptrdiff_t>(mask.offset);
    return {{kind::c_upper, o}, {kind::k_to_col, o}, {kind::k_from_col, -o}};
}

// Lines 4–6 of Algorithm 4 for one head. Q (d_attn, l_x), K (d_attn, l_z), V (d_v, l_z) may be
// blocks of rows of stacked heads. Writes A ← softmax(S/√d_attn) (l_z, l_x), the probabilities
// backward needs, and Ṽ ← V·A (d_v, l_x).
template <class T, class Dattn, class Dv, class Lx, class Lz, class Mask>
constexpr void attention_core_forward(mat_view<const T, Dattn, Lx> Q,
                                      mat_view<const T, Dattn, Lz> K, mat_view<const T, Dv, Lz> V,
                                      Mask mask, mat_view<T, Lz, Lx> A,
                                      mat_view<T, Dv, Lx> Vt) noexcept {
    using kernels::detail::matmul_impl;
    const attention_bands band = attention_bands_of(mask);
    matmul_impl(transpose(K), Q, A, false, band.scores);  // 4: S ← KᵀQ              (l_z, l_x)
    // 5: S[t_z, t_x] ← −∞ where ¬Mask[t_z, t_x];  6: A ← softmax(S/√d_attn), masked → exactly 0
    softmax_columns(A, attention_scale<T, Dattn>(), mask);
    matmul_impl(V, A, Vt, false, band.to_edge);  // 6: Ṽ ← V·A                      (d_v, l_x)
}

// Keys per tile (B_z) and queries per block (B_x) of the tiled forward. A host (xsimd kernels)
// takes 256 × 128 (a 128 KB tile in float): the products then run as fast as the untiled ones —
// one causal head of small, baby, gpt2 (l 128, 256, 1024) in −0.6 %, +0.1 %, −6.4 % of the
// untiled path's instructions (callgrind, AVX2), where 128 × 64 took +4 % at baby. A device
// (scalar kernels) takes 16 × 16, since the tile is RAM: 16 × 16 scores and 3 × 16 running
// values, 1.2 KB in float. Either is capped by the sequences' capacities;
// TYPEFORMER_ATTENTION_TILE_KEYS and TYPEFORMER_ATTENTION_TILE_QUERIES set them.
#if !defined(TYPEFORMER_ATTENTION_TILE_KEYS)
#define TYPEFORMER_ATTENTION_TILE_KEYS (TYPEFORMER_SIMD ? 256 : 16)
#endif
#if !defined(TYPEFORMER_ATTENTION_TILE_QUERIES)
#define TYPEFORMER_ATTENTION_TILE_QUERIES (TYPEFORMER_SIMD ? 128 : 16)
#endif
inline constexpr std::size_t attention_tile_keys = TYPEFORMER_ATTENTION_TILE_KEYS;
inline constexpr std::size_t attention_tile_queries = TYPEFORMER_ATTENTION_TILE_QUERIES;
static_assert(attention_tile_keys >= 1 && attention_tile_queries >= 1, "a tile has an entry");

// The tiled forward's scratch: one tile of scores S, then exp(S − m), and per query of the block
// the running maximum m, sum ℓ and rescaling factor α.
template <class T, std::size_t Bz, std::size_t Bx>
struct attention_tile {
    static constexpr std::size_t keys = Bz, queries = Bx;
    mat<T, l_z<Bz>, l_x<Bx>> S;  // 4–6: K_tileᵀ Q_block, then exp(·/√d_attn − m)   (B_z, B_x)
    std::array<T, Bx> m{}, l{}, alpha{};
};
// The tile for queries of length Lx against a context of length Lz (both capped at the defaults).
template <class T, class Lx, class Lz>
using attention_tile_for =
    attention_tile<T, (attention_tile_keys < Lz::capacity ? attention_tile_keys : Lz::capacity),
                   (attention_tile_queries < Lx::capacity ? attention_tile_queries : Lx::capacity)>;

// Columns [first, first + n) of a view.
template <class V>
constexpr V columns_of(V v, std::size_t first, std::size_t n) noexcept {
    return {v.ptr + first * v.ld, v.ld, v.n_rows, n};
}

// Lines 4–6 of Algorithm 4 for one head, in tiles (see the top of the file): Ṽ ← V·A (d_v, l_x)
// with A never formed. Equal to attention_core_forward up to the order of the roundings.
template <class T, class Dattn, class Dv, class Lx, class Lz, class Mask, std::size_t Bz,
          std::size_t Bx>
constexpr void attention_core_forward_tiled(mat_view<const T, Dattn, Lx> Q,
                                            mat_view<const T, Dattn, Lz> K,
                                            mat_view<const T, Dv, Lz> V, Mask mask,
                                            mat_view<T, Dv, Lx> Vt,
                                            attention_tile<T, Bz, Bx>& s) noexcept {
    using kernels::detail::matmul_impl;
    using kind = kernels::gemm_band::kind;
    constexpr bool causal = std::is_same_v<Mask, mask_unidirectional>;
    std::ptrdiff_t offset = 0;  // keep (t_z, t_x) iff t_z ≤ t_x + offset
    if constexpr (causal)
        offset = static_cast<std::ptrdiff_t>(mask.offset);
    const std::size_t l_x = Q.cols(), l_z = K.cols();
    const T scale = attention_scale<T, Dattn>();
    for (std::size_t x0 = 0; x0 < l_x; x0 += Bx) {  // a block of queries
        const std::size_t nx = l_x - x0 < Bx ? l_x - x0 : Bx;
        std::size_t z_end = l_z;  // the keys some query of the block sees
        if (causal) {
            const auto last = static_cast<std::ptrdiff_t>(x0 + nx) + offset;
            z_end = last < static_cast<std::ptrdiff_t>(l_z) ? static_cast<std::size_t>(last) : l_z;
        }
        const auto Qb = columns_of(Q, x0, nx);  //                                   (d_attn, B_x)
        const auto O = columns_of(Vt, x0, nx);  // Ṽ's block, accumulated unnormalised  (d_v, B_x)
        if (z_end == 0) {  // no context (l_z = 0): Ṽ = V·A is 0, as attention_core_forward's
            fill(O, T(0));
            continue;
        }
        for (std::size_t j = 0; j < nx; ++j) {
            s.m[j] = -std::numeric_limits<T>::infinity();
            s.l[j] = T(0);
        }
        for (std::size_t z0 = 0; z0 < z_end; z0 += Bz) {  // a tile of keys
            const std::size_t nz = z_end - z0 < Bz ? z_end - z0 : Bz;
            // the mask's edge within the tile: row i (t_z = z0 + i), column j (t_x = x0 + j)
            const std::ptrdiff_t edge =
                static_cast<std::ptrdiff_t>(x0) + offset - static_cast<std::ptrdiff_t>(z0);
            const bool whole = !causal || edge >= static_cast<std::ptrdiff_t>(nz) - 1;
            s.S.resize_rows(nz);
            s.S.resize_cols(nx);
            // 4: S ← K_tileᵀ Q_block (entries past the edge not computed)            (B_z, B_x)
            matmul_impl(transpose(columns_of(K, z0, nz)), Qb, s.S, false,
                        whole ? kernels::gemm_band{} : kernels::gemm_band{kind::c_upper, edge});
            // 5–6: masked → 0; exp(S/√d_attn − m), m and ℓ updated, α for the earlier tiles
            kernels::backend::softmax_columns_online(nz, nx, scale, !whole, edge, s.S.data(),
                                                     s.S.stride(), s.m.data(), s.l.data(),
                                                     s.alpha.data());
            if (z0 > 0)
                for (std::size_t j = 0; j < nx; ++j)
                    kernels::backend::scale(O.rows(), std::size_t{1}, s.alpha[j], O.col(j).data(),
                                            O.stride());
            // 6: Ṽ_block ← Ṽ_block·diag(α) + V_tile exp(…)                             (d_v, B_x)
            matmul_impl(columns_of(V, z0, nz), s.S, O, z0 > 0,
                        whole ? kernels::gemm_band{} : kernels::gemm_band{kind::k_to_col, edge});
        }
        for (std::size_t j = 0; j < nx; ++j)  // 6: the softmax's normalisation, Ṽ[:, t] / ℓ[t]
            kernels::backend::scale(O.rows(), std::size_t{1}, T(1) / s.l[j], O.col(j).data(),
                                    O.stride());
    }
}

// Backward of lines 4–6 for one head, from the forward's A and mask. WRITES (=, not +=) dQ, dK,
// dV: the callers own these per-head blocks and accumulate them into the parameters afterwards;
// with accumulate_kv it ADDS into dK and dV instead (a tile of query columns at a time, the keys
// and values of every tile: train/step.hpp). dA, dS (l_z, l_x) are scratch.
template <class T, class Dattn, class Dv, class Lx, class Lz, class Mask>
void attention_core_backward(mat_view<const T, Dattn, Lx> Q, mat_view<const T, Dattn, Lz> K,
                             mat_view<const T, Dv, Lz> V, mat_view<const T, Lz, Lx> A, Mask mask,
                             mat_view<const T, Dv, Lx> dVt, mat_view<T, Dattn, Lx> dQ,
                             mat_view<T, Dattn, Lz> dK, mat_view<T, Dv, Lz> dV,
                             mat_view<T, Lz, Lx> dA, mat_view<T, Lz, Lx> dS,
                             bool accumulate_kv = false) noexcept {
    using kernels::detail::matmul_impl;
    const attention_bands band = attention_bands_of(mask);
    matmul_impl(dVt, transpose(A), dV, accumulate_kv, band.from_edge);  // 6: dV = dṼ Aᵀ (d_v, l_z)
    matmul_impl(transpose(V), dVt, dA, false, band.scores);  // 6: dA = Vᵀ dṼ     (l_z, l_x)
    // 5–6: dS = A ⊙ (dA − 1·Σ_t_z A⊙dA)/√d_attn; masked entries have A = 0, so dS = 0 there
    fill(dS, T(0));
    softmax_columns_backward(A, dA, attention_scale<T, Dattn>(), dS, mask);
    matmul_impl(K, dS, dQ, false, band.to_edge);  // 4: dQ = K dS      (d_attn, l_x)
    matmul_impl(Q, transpose(dS), dK, accumulate_kv,
                band.from_edge);  // 4: dK = Q dSᵀ (d_attn, l_z)
}

}  // namespace detail

// The parameters W_qkv of one head. Dx, Dz, Dattn, Dout are dimensions (d_e<384>, d_attn<64>, …).
template <class T, fixed_dimension Dx, fixed_dimension Dz, fixed_dimension Dattn,
          fixed_dimension Dout>
struct Attention {
    using value_type = T;
    using x_dim = Dx;
    using z_dim = Dz;
    using attn_dim = Dattn;
    using out_dim = Dout;
    using W_q_type = mat<T, Dattn, Dx>;  // Hana's macro cannot take commas
    using b_q_type = vec<T, Dattn>;
    using W_k_type = mat<T, Dattn, Dz>;
    using b_k_type = vec<T, Dattn>;
    using W_v_type = mat<T, Dout, Dz>;
    using b_v_type = vec<T, Dout>;
    BOOST_HANA_DEFINE_STRUCT(Attention, (W_q_type, W_q), (b_q_type, b_q), (W_k_type, W_k),
                             (b_k_type, b_k), (W_v_type, W_v), (b_v_type, b_v));

    // What backward needs besides the inputs X, Z; sized at the lengths' capacities.
    template <dimension Lx, dimension Lz>
    struct cache {
        mat<T, Dattn, Lx> Q;  // 1
        mat<T, Dattn, Lz> K;  // 2
        mat<T, Dout, Lz> V;   // 3
        mat<T, Lz, Lx> A;     // 6: softmax(S/√d_attn), masked entries exactly 0
    };
    // Backward's working memory; its contents mean nothing between calls, so one scratch can
    // serve every layer of a model.
    template <dimension Lx, dimension Lz>
    struct scratch {
        mat<T, Dattn, Lx> dQ;
        mat<T, Dattn, Lz> dK;
        mat<T, Dout, Lz> dV;
        mat<T, Lz, Lx> dA, dS;
    };
};

// What Algorithms 4 and 5 need of their operands: X (d_x, ·), Z (d_z, ·) and an output
// Ṽ (d_out, l_x) with X's columns, all of scalar type T, Ṽ writable.
template <class T, class Dx, class Dz, class Dout, class XM, class ZM, class VM>
concept attention_operands = matrix_operand<XM> && matrix_operand<ZM> && matrix_operand<VM> &&
    rows_are<detail::rows_of<XM>, Dx> && rows_are<detail::rows_of<ZM>, Dz> &&
    rows_are<detail::rows_of<VM>, Dout> && same_columns<detail::cols_of<VM>, detail::cols_of<XM>> &&
    same_value_type<detail::value_of<XM>, T> && same_value_type<detail::value_of<ZM>, T> &&
    same_value_type<detail::value_of<VM>, T> && writable<detail::element_of<VM>>;

// ... and of their backward's: dṼ shaped as Ṽ, dX as X and dZ as Z, the last two writable.
template <class T, class Dx, class Dz, class Dout, class XM, class ZM, class DVM, class DXM,
          class DZM>
concept attention_grad_operands =
    matrix_operand<XM> && matrix_operand<ZM> && matrix_operand<DVM> && matrix_operand<DXM> &&
    matrix_operand<DZM> && rows_are<detail::rows_of<XM>, Dx> && rows_are<detail::rows_of<ZM>, Dz> &&
    rows_are<detail::rows_of<DVM>, Dout> && rows_are<detail::rows_of<DXM>, Dx> &&
    rows_are<detail::rows_of<DZM>, Dz> && same_columns<detail::cols_of<DVM>, detail::cols_of<XM>> &&
    same_columns<detail::cols_of<DXM>, detail::cols_of<XM>> &&
    same_columns<detail::cols_of<DZM>, detail::cols_of<ZM>> &&
    same_value_type<detail::value_of<XM>, T> && same_value_type<detail::value_of<ZM>, T> &&
    same_value_type<detail::value_of<DVM>, T> && same_value_type<detail::value_of<DXM>, T> &&
    same_value_type<detail::value_of<DZM>, T> && writable<detail::element_of<DXM>> &&
    writable<detail::element_of<DZM>>;

inline namespace typed {

// Algorithm 4. Ṽ's run-time extent (l_x columns) is set by the caller; self-attention passes
// the same tensor as X and Z.
template <class T, class Dx, class Dz, class Dattn, class Dout, class XM, class ZM,
          softmax_mask Mask, class VM>
    requires attention_operands<T, Dx, Dz, Dout, XM, ZM, VM>
void forward(const Attention<T, Dx, Dz, Dattn, Dout>& p, const XM& X, const ZM& Z, Mask mask,
             VM&& Vt,
             typename Attention<T, Dx, Dz, Dattn, Dout>::template cache<
                 detail::cols_of<XM>, detail::cols_of<ZM>>& c) noexcept {
    const auto Xv = as_view(X);
    const auto Zv = as_view(Z);
    const std::size_t l_x = Xv.cols(), l_z = Zv.cols();
    TYPEFORMER_CHECK(as_view(Vt).cols() == l_x, "Attention: Ṽ must have X's number of columns");
    detail::attention_resize(c.Q, Dattn::size, l_x);
    detail::attention_resize(c.K, Dattn::size, l_z);
    detail::attention_resize(c.V, Dout::size, l_z);
    detail::attention_resize(c.A, l_z, l_x);

    // the biases are the products' fused epilogues (kernels/scalar/gemm.hpp)
    using kernels::detail::matmul_impl;
    constexpr kernels::gemm_epilogue<T> none{};
    // 1: Q ← W_q X + b_q 1ᵀ (d_attn, l_x)  2: K ← W_k Z + b_k 1ᵀ (d_attn, l_z)
    // 3: V ← W_v Z + b_v 1ᵀ (d_out, l_z)
    matmul_impl(p.W_q, Xv, c.Q, false, {}, none.with_bias(p.b_q.data()));
    matmul_impl(p.W_k, Zv, c.K, false, {}, none.with_bias(p.b_k.data()));
    matmul_impl(p.W_v, Zv, c.V, false, {}, none.with_bias(p.b_v.data()));
    detail::attention_core_forward(detail::attention_cview(c.Q), detail::attention_cview(c.K),
                                   detail::attention_cview(c.V), mask, as_view(c.A),
                                   as_view(Vt));  // 4–6
}

// Backward of Algorithm 4: ACCUMULATES (+=) into dX, dZ and grads. Self-attention passes the
// same tensor as X and Z and the same buffer as dX and dZ. `mask` is the forward's: its zeros are
// in the cached A, and a causal one lets the products skip the masked half.
template <class T, class Dx, class Dz, class Dattn, class Dout, class XM, class ZM,
          softmax_mask Mask, class DVM, class DXM, class DZM>
    requires attention_grad_operands<T, Dx, Dz, Dout, XM, ZM, DVM, DXM, DZM>
void backward(
    const Attention<T, Dx, Dz, Dattn, Dout>& p, const XM& X, const ZM& Z, Mask mask, const DVM& dVt,
    DXM&& dX, DZM&& dZ, Attention<T, Dx, Dz, Dattn, Dout>& grads,
    const typename Attention<T, Dx, Dz, Dattn, Dout>::template cache<detail::cols_of<XM>,
                                                                     detail::cols_of<ZM>>& c,
    typename Attention<T, Dx, Dz, Dattn, Dout>::template scratch<detail::cols_of<XM>,
                                                                 detail::cols_of<ZM>>& s) noexcept {
    const auto Xv = as_view(X);
    const auto Zv = as_view(Z);
    const std::size_t l_x = Xv.cols(), l_z = Zv.cols();
    TYPEFORMER_CHECK(c.Q.cols() == l_x && c.K.cols() == l_z,
                     "Attention backward: X, Z are not the forward's lengths");
    detail::attention_resize(s.dQ, Dattn::size, l_x);
    detail::attention_resize(s.dK, Dattn::size, l_z);
    detail::attention_resize(s.dV, Dout::size, l_z);
    detail::attention_resize(s.dA, l_z, l_x);
    detail::attention_resize(s.dS, l_z, l_x);

    detail::attention_core_backward(
        detail::attention_cview(c.Q), detail::attention_cview(c.K), detail::attention_cview(c.V),
        detail::attention_cview(c.A), mask, detail::attention_cview(dVt), as_view(s.dQ),
        as_view(s.dK), as_view(s.dV), as_view(s.dA), as_view(s.dS));  // 6–4

    // 3–1: db += dQ 1, dZ += Wᵀ dQ, dW += dQ Zᵀ for V, K, Q (nn/gradient.hpp's order)
    const detail::accumulate_into<Attention<T, Dx, Dz, Dattn, Dout>, T> g(grads);
    detail::projection_backward(p.W_v, detail::leaf::W_v, detail::leaf::b_v, 0, Dout::size, Zv,
                                s.dV.view(), as_view(dZ), g);
    detail::projection_backward(p.W_k, detail::leaf::W_k, detail::leaf::b_k, 0, Dattn::size, Zv,
                                s.dK.view(), as_view(dZ), g);
    detail::projection_backward(p.W_q, detail::leaf::W_q, detail::leaf::b_q, 0, Dattn::size, Xv,
                                s.dQ.view(), as_view(dX), g);
}

}  // namespace typed

// ---- a mis-shaped call: one error naming both dimensions (shape_error.hpp) ----

namespace detail {

// Whether a call's first tensor is a vector: Algorithm 3's forms (single_query_attention.hpp)
// take one query e, Algorithm 4's a matrix X.
template <class... A>
inline constexpr bool first_is_vector = false;
template <class A0, class... A>
inline constexpr bool first_is_vector<A0, A...> = diagnosable_vector<A0>;

// Algorithms 4 and 5, forward(p, X, Z, mask, Ṽ, cache): X (d_x, l_x), Z (d_z, l_z), Ṽ (d_out, l_x).
// ExpectOut names the parameter Ṽ's rows come from (W_v in Algorithm 4, W_o in Algorithm 5).
template <class Block, class T, class Dx, class Dz, class Dout, class ExpectOut, class... A>
constexpr auto attention_forward_error() {
    if constexpr (sizeof...(A) < 5) {
        return what<arguments<bare_t<A>...>>{};
    } else {
        using X = arg_ref_t<0, A...>;
        using Z = arg_ref_t<1, A...>;
        using V = arg_ref_t<3, A...>;
        auto rest = [] {
            if constexpr (!softmax_mask<arg_t<2, A...>>)
                return what<arguments<bare_t<A>...>>{};
            else if constexpr (matrix_operand<X> && matrix_operand<Z>)
                return check_cache<arg_t<4, A...>,
                                   typename Block::template cache<cols_of<X>, cols_of<Z>>>();
            else
                return what<>{};
        };
        auto residual = [] {  // MHAttention's forward(…, cache, R): R shaped as Ṽ
            if constexpr (sizeof...(A) == 6) {
                using R = arg_ref_t<5, A...>;
                return first_error(check_matrix<role::R, R>(),
                                   check_rows<role::R, R, Dout, ExpectOut>(),
                                   check_same_cols<role::R, R, role::X, X>(),
                                   check_scalar<role::R, R, T, W_q_scalar<T>>());
            } else {
                return what<>{};
            }
        };
        return or_arguments<A...>(first_error(
            check_matrix<role::X, X>(), check_rows<role::X, X, Dx, W_q_cols<Dx>>(),
            check_matrix<role::Z, Z>(), check_rows<role::Z, Z, Dz, W_k_cols<Dz>>(),
            check_matrix<role::V_tilde, V>(), check_rows<role::V_tilde, V, Dout, ExpectOut>(),
            check_same_cols<role::V_tilde, V, role::X, X>(),
            check_scalar<role::X, X, T, W_q_scalar<T>>(),
            check_scalar<role::Z, Z, T, W_k_scalar<T>>(),
            check_scalar<role::V_tilde, V, T, W_q_scalar<T>>(), check_writable<role::V_tilde, V>(),
            rest(), residual()));
    }
}

// ... backward(p, X, Z, mask, dṼ, dX, dZ, grads, cache, scratch): dṼ as Ṽ, dX as X, dZ as Z.
template <class Block, class T, class Dx, class Dz, class Dout, class ExpectOut, class... A>
constexpr auto attention_backward_error() {
    if constexpr (sizeof...(A) < 9) {
        return what<arguments<bare_t<A>...>>{};
    } else {
        using X = arg_ref_t<0, A...>;
        using Z = arg_ref_t<1, A...>;
        using DV = arg_ref_t<3, A...>;
        using DX = arg_ref_t<4, A...>;
        using DZ = arg_ref_t<5, A...>;
        auto rest = [] {
            if constexpr (!softmax_mask<arg_t<2, A...>>)
                return what<arguments<bare_t<A>...>>{};
            else if constexpr (matrix_operand<X> && matrix_operand<Z>)
                return first_error(
                    check_cache<arg_t<7, A...>,
                                typename Block::template cache<cols_of<X>, cols_of<Z>>>(),
                    check_cache<arg_t<8, A...>,
                                typename Block::template scratch<cols_of<X>, cols_of<Z>>>());
            else
                return what<>{};
        };
        return or_arguments<A...>(first_error(
            check_matrix<role::X, X>(), check_rows<role::X, X, Dx, W_q_cols<Dx>>(),
            check_matrix<role::Z, Z>(), check_rows<role::Z, Z, Dz, W_k_cols<Dz>>(),
            check_matrix<role::dV_tilde, DV>(), check_rows<role::dV_tilde, DV, Dout, ExpectOut>(),
            check_same_cols<role::dV_tilde, DV, role::X, X>(), check_matrix<role::dX, DX>(),
            check_same_shape<role::dX, DX, role::X, X>(), check_matrix<role::dZ, DZ>(),
            check_same_shape<role::dZ, DZ, role::Z, Z>(),
            check_scalar<role::X, X, T, W_q_scalar<T>>(),
            check_scalar<role::Z, Z, T, W_k_scalar<T>>(),
            check_scalar<role::dV_tilde, DV, T, W_q_scalar<T>>(),
            check_scalar<role::dX, DX, T, W_q_scalar<T>>(),
            check_scalar<role::dZ, DZ, T, W_k_scalar<T>>(), check_writable<role::dX, DX>(),
            check_writable<role::dZ, DZ>(), check_grads<arg_t<6, A...>, Block>(), rest()));
    }
}

}  // namespace detail

template <class T, class Dx, class Dz, class Dattn, class Dout, class... A>
    requires(!detail::first_is_vector<A...> &&
             !requires(const Attention<T, Dx, Dz, Dattn, Dout>& p, A&&... a) {
                 typed::forward(p, static_cast<A&&>(a)...);
             })
auto forward(const Attention<T, Dx, Dz, Dattn, Dout>& p, A&&... args) noexcept
    -> decltype(typeformer::detail::shape_error_of<in::Algorithm_4_attention>(
        detail::attention_forward_error<Attention<T, Dx, Dz, Dattn, Dout>, T, Dx, Dz, Dout,
                                        W_v_rows<Dout>, A...>()));
template <class T, class Dx, class Dz, class Dattn, class Dout, class... A>
    requires(!detail::first_is_vector<A...> &&
             !requires(const Attention<T, Dx, Dz, Dattn, Dout>& p, A&&... a) {
                 typed::backward(p, static_cast<A&&>(a)...);
             })
auto backward(const Attention<T, Dx, Dz, Dattn, Dout>& p, A&&... args) noexcept
    -> decltype(typeformer::detail::shape_error_of<in::Algorithm_4_attention_backward>(
        detail::attention_backward_error<Attention<T, Dx, Dz, Dattn, Dout>, T, Dx, Dz, Dout,
                                         W_v_rows<Dout>, A...>()));

}  // namespace typeformer::nn
