// xsimd matrix products on raw column-major storage; same signatures as kernels/scalar/gemm.hpp.
//
//   gemm_nn  C (m, n) ←/+= A (m, k) · B (k, n)
//   gemm_tn  C (m, n) ←/+= Aᵀ · B     A stored (k, m)
//   gemm_nt  C (m, n) ←/+= A · Bᵀ     B stored (n, k)
//   gemv_n, gemv_t   y (m) ←/+= A·x, Aᵀ·x
//
// One register-blocked micro-kernel does all three forms: a block of MV batches of rows × NR
// columns of C lives in registers while k runs; each step loads MV batches of a column of A and
// broadcasts NR entries of B (B(p, j) = B[p·rs + j·cs], so Bᵀ is the same kernel with the
// strides swapped). A is copied into a small stack panel (≤ 32 KiB, contiguous, zero-padded
// rows) so the micro-kernel streams it linearly (an A of at most 256 KiB, which stays in cache,
// is read in place where its panel is whole batches); for Aᵀ the copy is the transposition (W × W
// blocks, in registers on AVX-512), and a Bᵀ whose rows are far apart is copied the same way
// (gemm_driver's pack_b). The tiles are chosen at compile time from xsimd's architecture tag
// (gemm_tiles): 2×6 with 16 vector registers; with 32 rows are cut into tiles of 3 batches
// that end in a 4- or 2-batch tile, never in a lone batch when m has more; a last batch of at
// most W/4 rows runs without a tile (gemm_few_rows). The driver runs
// column blocks (B's block in L2), row blocks (C's block in L2), KC-long k slices (A's panel in
// L1), row panels, register tiles: k runs inside a row block, so a tall C is not swept once per
// k slice. An A larger than L2 (a weight of baby or gpt2) is asked for one panel ahead while the
// tiles run. No heap.
#pragma once

#include <cstddef>
#include <type_traits>
#include <utility>

#include "../scalar/gemm.hpp"
#include "common.hpp"

#if defined(_OPENMP)
#include <omp.h>
#endif

namespace typeformer::kernels::simd_impl {

// Vector registers of an instruction set, from xsimd's architecture tag: 32 with AVX-512 and
// AArch64's NEON, 16 otherwise (AVX2, AVX, SSE, 32-bit NEON).
template <class Arch>
inline constexpr std::size_t vector_registers =
    std::is_base_of_v<xsimd::avx512f, Arch> || std::is_base_of_v<xsimd::neon64, Arch> ? 32 : 16;

// The register tiles of an instruction set, fixed at compile time by its architecture tag
// (xsimd::default_arch: what -march enables), from which gemm_blocking sizes the blocks: tiles
// of MV batches of rows × nr(MV) columns of C, and batches(nb), the batches of the next row
// tile when nb batches of rows are left.
//   16 registers: 2×6 (12 accumulators, 2 batches of A, 1 broadcast: BLIS's and OpenBLAS's
//   Haswell tile, 6×16 in their row-major terms), and 1×8 for a lone batch.
template <class Arch, std::size_t Registers = vector_registers<Arch>>
struct gemm_tiles {
    static constexpr std::size_t mv = 2, mv_max = 2;
    static constexpr std::size_t nr(std::size_t MV) noexcept { return MV == 2 ? 6 : 8; }
    static constexpr std::size_t batches(std::size_t nb) noexcept { return nb >= 2 ? 2 : 1; }
};
//   32 registers: 3×8 (24 accumulators); a row remainder of 4 batches runs as one 4×6 tile and
//   one of 2 (or a lone batch) as 2×12 / 1×12, so e.g. 64 rows (d_mid = 64) never fall to a
//   tile that does one FMA per load: 3s, ending in 4 or 2 (or 1).
template <class Arch>
struct gemm_tiles<Arch, 32> {
    static constexpr std::size_t mv = 3, mv_max = 4;
    static constexpr std::size_t nr(std::size_t MV) noexcept {
        return MV == 4 ? 6 : MV == 3 ? 8 : 12;
    }
    static constexpr std::size_t batches(std::size_t nb) noexcept {
        return nb == 4 || nb == 2 || nb == 1 ? nb : 3;
    }
};

static_assert(vector_registers<xsimd::avx512bw> == 32 && vector_registers<xsimd::neon64> == 32 &&
              vector_registers<xsimd::fma3<xsimd::avx2>> == 16 &&
              vector_registers<xsimd::sse4_2> == 16);

// This build's.
using gemm_tile = gemm_tiles<xsimd::default_arch>;
inline constexpr std::size_t gemm_mv = gemm_tile::mv, gemm_mv_max = gemm_tile::mv_max;
template <std::size_t MV>
inline constexpr std::size_t gemm_nr = gemm_tile::nr(MV);
constexpr std::size_t gemm_tile_batches(std::size_t nb) noexcept {
    return gemm_tile::batches(nb);
}

template <class T>
struct gemm_blocking {
    static constexpr std::size_t W = width<T>;
    static constexpr std::size_t MR_max = gemm_mv_max * W;
    // A's panel, at most MR_max × KC (32 KiB): it stays in L1 while the micro-kernel sweeps the
    // columns of the block.
    static constexpr std::size_t KC_fit = 32 * 1024 / (MR_max * sizeof(T)) / 8 * 8;
    static constexpr std::size_t KC = KC_fit < 64 ? 64 : KC_fit > 256 ? 256 : KC_fit;
    // B's block, KC × NC (about 256 KiB, a multiple of every tile width): it stays in L2 while
    // the row panels of one row block go by.
    static constexpr std::size_t NC = (256 * 1024 / (KC * sizeof(T))) / 24 * 24;
    // Rows of C per block (MC × NC about 384 KiB for float): k runs inside a row block, so that
    // C block stays in L2 across the k slices instead of C being swept once per slice.
    static constexpr std::size_t MC = 4 * gemm_mv * W;
    // A·Bᵀ with B's rows far apart (gemm_driver's pack_b): column blocks of NCP, B's kc × NCP
    // block copied column by column into a stack buffer of about 48 KiB.
    static constexpr std::size_t NCP_fit = 48 * 1024 / (KC * sizeof(T)) / 24 * 24;
    static constexpr std::size_t NCP = NCP_fit < 24 ? 24 : NCP_fit;
    static constexpr std::size_t KCP = (KC + W - 1) / W * W;  // the buffer's column stride
};

// Every accumulator of a register block set to 0 (unrolled: the block must stay in registers).
template <class T, std::size_t R, std::size_t N>
inline void zero_block(batch<T> (&acc)[R][N]) noexcept {
    TYPEFORMER_UNROLL
    for (std::size_t r = 0; r < R; ++r) {
        TYPEFORMER_UNROLL
        for (std::size_t q = 0; q < N; ++q)
            acc[r][q] = batch<T>(T(0));
    }
}

// C[0:MV·W (last batch: mlast rows), 0:NR] ←/+= Ap (MV·W × kc, ld MV·W) · B (kc × NR, strides rs, cs)
// then, given the tile's epilogue `ep` (its last k slice), + bias and + R before the store.
// `prefetch_c`: C is too large to be in cache (see gemm_driver).
template <class T, std::size_t MV, std::size_t NR>
void gemm_micro(std::size_t kc, const T* Ap, std::size_t lda, const T* B, std::size_t rs,
                std::size_t cs, T* C, std::size_t ldc, std::size_t mlast, bool accumulate,
                const gemm_epilogue<T>* ep = nullptr, bool prefetch_c = false) noexcept {
    constexpr std::size_t W = width<T>;
    // The accumulators must stay in registers: every loop over MV or NR is unrolled completely.
    batch<T> acc[MV][NR];
#if defined(__GNUC__)
    // The tile of C is loaded (or only written) after the k loop; asking for its lines now hides
    // the miss (from L3 when C is larger than L2: baby's products ran 2-20% faster).
    if (prefetch_c) {
        TYPEFORMER_UNROLL
        for (std::size_t j = 0; j < NR; ++j) {
            __builtin_prefetch(C + j * ldc, 1);
            __builtin_prefetch(C + j * ldc + (MV * W - 1), 1);
        }
    }
#endif
    zero_block(acc);
    for (std::size_t p = 0; p < kc; ++p) {
        const T* a = Ap + p * lda;
        const T* b = B + p * rs;
        batch<T> av[MV];
        TYPEFORMER_UNROLL
        for (std::size_t v = 0; v < MV; ++v)
            av[v] = batch<T>::load_unaligned(a + v * W);
        TYPEFORMER_UNROLL
        for (std::size_t j = 0; j < NR; ++j) {
            const batch<T> bj(b[j * cs]);
            TYPEFORMER_UNROLL
            for (std::size_t v = 0; v < MV; ++v)
                acc[v][j] = xsimd::fma(av[v], bj, acc[v][j]);
        }
    }
    const bool bias = ep != nullptr && ep->has_bias();
    const bool residual = ep != nullptr && ep->has_residual();
    batch<T> b[MV] = {};
    if (bias) {
        TYPEFORMER_UNROLL
        for (std::size_t v = 0; v < MV; ++v)
            b[v] = load_n(ep->bias_at(v * W), v + 1 == MV ? mlast : W);
    }
    TYPEFORMER_UNROLL
    for (std::size_t j = 0; j < NR; ++j) {
        T* c = C + j * ldc;
        TYPEFORMER_UNROLL
        for (std::size_t v = 0; v < MV; ++v) {
            const std::size_t rows = v + 1 == MV ? mlast : W;
            batch<T> r = acc[v][j];
            if (accumulate)
                r += load_n(c + v * W, rows);
            if (bias)
                r += b[v];
            if (residual)
                r += load_n(ep->residual_at(v * W, j), rows);
            store_n(c + v * W, r, rows);
        }
    }
}

// f(std::integral_constant<std::size_t, n>{}) for a run-time n in [1, N]: a row panel's
// batch count or an edge tile's width becomes a constant for the packing and the tiles.
template <std::size_t N, class F>
void with_constant(std::size_t n, F&& f) {
    [&]<std::size_t... V>(std::index_sequence<V...>) {
        ((n == V + 1 ? f(std::integral_constant<std::size_t, V + 1>{}) : void()), ...);
    }
    (std::make_index_sequence<N>{});
}

// The epilogue (scalar/gemm.hpp) as a pass over a finished C (rows, cols): for the paths
// without register tiles (one or few columns, k = 0, a band). Batch by batch, so the entries
// match add_bias and axpy run one after the other.
template <class T>
void apply_epilogue(std::size_t rows, std::size_t cols, T* C, std::size_t ldc,
                    const gemm_epilogue<T>& ep) noexcept {
    for (std::size_t j = 0; j < cols; ++j) {
        T* c = C + j * ldc;
        for_each_run<T>(rows, [&](std::size_t i, std::size_t n) {
            batch<T> r = load_n(c + i, n);
            if (ep.has_bias())
                r += load_n(ep.bias_at(i), n);
            if (ep.has_residual())
                r += load_n(ep.residual_at(i, j), n);
            store_n(c + i, r, n);
        });
    }
}

// The next A panel's source lines, asked for while this panel's tiles run (FMA-bound, load
// ports free): `strips` runs of `bytes` bytes, `stride` bytes apart (A's columns for A·B, A·Bᵀ;
// its rows for Aᵀ·B). Each tile takes its share, so the pack that follows reads from cache.
struct panel_prefetch {
    const char* base = nullptr;
    std::size_t strips = 0, bytes = 0, stride = 0;
    void share(std::size_t t, std::size_t tiles) const noexcept {
#if defined(__GNUC__)
        const std::size_t s0 = strips * t / tiles, s1 = strips * (t + 1) / tiles;
        for (std::size_t s = s0; s < s1; ++s)
            for (std::size_t b = 0; b < bytes; b += 64)
                __builtin_prefetch(base + s * stride + b, 0, 2);
#else
        (void)t;
        (void)tiles;
#endif
    }
};

// One row panel (MV batches, rows [i0, …) of C) against nc columns, for the terms [plo, phi)
// of the sum that Ap and B hold (k slice pc): full tiles, then one narrower tile. A band
// (columns numbered from the panel's first) narrows each tile's terms to those that reach one of
// its columns and skips tiles whose rows it does not want; a tile's first terms overwrite C
// unless `accumulate`, the later slices' add to it. `ep` (null: none; never with a band) is the
// panel's epilogue, added in each tile's registers on its last slice.
template <class T, std::size_t MV>
void gemm_panel(std::size_t nc, std::size_t k, std::size_t pc, std::size_t plo, std::size_t phi,
                const T* Ap, std::size_t lda, const T* B, std::size_t rs, std::size_t cs, T* C,
                std::size_t ldc, std::size_t i0, std::size_t mlast, bool accumulate, gemm_band band,
                const gemm_epilogue<T>* ep, bool prefetch_c,
                const panel_prefetch& next = {}) noexcept {
    constexpr std::size_t NR = gemm_nr<MV>;
    const std::size_t tiles = (nc + NR - 1) / NR;
    auto tile = [&](std::size_t j, auto NRt) {
        constexpr std::size_t nr = decltype(NRt)::value;
        if (next.strips != 0)
            next.share(j / NR, tiles);
        if (band.rows_upto(i0 + 1, j + nr) <= i0)
            return;  // c_upper: no row of this panel is wanted by these columns
        const std::size_t first = band.k_first(k, j);
        const std::size_t lo = first > plo ? first : plo;
        const std::size_t last = band.k_last(k, j + nr);
        const std::size_t hi = last < phi ? last : phi;
        if (lo >= hi)
            return;
        const gemm_epilogue<T> tile_ep = ep != nullptr ? ep->at(0, j) : gemm_epilogue<T>{};
        gemm_micro<T, MV, nr>(hi - lo, Ap + (lo - plo) * lda, lda, B + (lo - plo) * rs + j * cs, rs,
                              cs, C + j * ldc, ldc, mlast, accumulate || pc > first,
                              ep != nullptr && phi == k ? &tile_ep : nullptr, prefetch_c);
    };
    std::size_t j = 0;
    for (; j + NR <= nc; j += NR)
        tile(j, std::integral_constant<std::size_t, NR>{});
    if (j == nc)
        return;
    with_constant<NR - 1>(nc - j, [&](auto NRe) { tile(j, NRe); });
}

// Ap (NV·W × kc) ← rows [0, mb) of the (mb × kc) block at A, X(i, p) = A[i + p·lda] (A·B,
// A·Bᵀ: rows of a column are contiguous, copied by batches); rows past mb are zero. NV is a
// constant so the copy of a column is NV unrolled loads and stores: as a loop over a run-time
// count GCC turns it into a memcpy, which -march=znver3 expands to `rep movs`, ~30 cycles to
// start for 64 bytes, and that was a fifth of a baby forward pass.
template <class T, std::size_t NV>
void gemm_pack_a(std::size_t mb, std::size_t kc, const T* A, std::size_t lda, T* Ap) noexcept {
    constexpr std::size_t W = width<T>;
    constexpr std::size_t ld = NV * W;
    if (mb == ld) {
        for (std::size_t p = 0; p < kc; ++p) {
            const T* a = A + p * lda;
            T* d = Ap + p * ld;
            TYPEFORMER_UNROLL
            for (std::size_t v = 0; v < NV; ++v)
                batch<T>::load_unaligned(a + v * W).store_aligned(d + v * W);
        }
        return;
    }
    const std::size_t full = mb / W;  // < NV
    for (std::size_t p = 0; p < kc; ++p) {
        const T* a = A + p * lda;
        T* d = Ap + p * ld;
        TYPEFORMER_UNROLL
        for (std::size_t v = 0; v < NV; ++v) {
            if (v < full)
                batch<T>::load_unaligned(a + v * W).store_aligned(d + v * W);
            else if (v == full)
                load_n(a + v * W, mb - full * W).store_aligned(d + v * W);
            else
                batch<T>(T(0)).store_aligned(d + v * W);
        }
    }
}

// The same for Aᵀ·B: X(i, p) = A[i·lda + p], row i of the panel is the contiguous column i of
// A; the copy is a transposition, done in W × W blocks (in registers on AVX-512 float).
template <class T>
void gemm_pack_at(std::size_t mb, std::size_t kc, const T* A, std::size_t lda, T* Ap,
                  std::size_t nv) noexcept {
    constexpr std::size_t W = width<T>;
    const std::size_t ld = nv * W;
#if XSIMD_WITH_AVX512F
    if constexpr (std::is_same_v<T, float> && W == 16) {
        // The full-mask forms with an explicit source: GCC 12's unmasked ones pass an
        // _mm512_undefined_ps() that -Wmaybe-uninitialized flags at -O2.
        constexpr __mmask16 all = 0xFFFF;
        for (std::size_t i0 = 0; i0 < ld; i0 += 16) {
            const std::size_t rows = mb > i0 ? (mb - i0 < 16 ? mb - i0 : 16) : 0;
            for (std::size_t p0 = 0; p0 < kc; p0 += 16) {
                const std::size_t cnt = kc - p0 < 16 ? kc - p0 : 16;
                const __mmask16 mask = static_cast<__mmask16>((1u << cnt) - 1u);
                __m512 r[16], t[16];
                TYPEFORMER_UNROLL
                for (std::size_t q = 0; q < 16; ++q)
                    r[q] = q < rows ? _mm512_maskz_loadu_ps(mask, A + (i0 + q) * lda + p0)
                                    : _mm512_setzero_ps();
                // r[q][s] = X(i0 + q, p0 + s); after the 4 stages r[s][q] = the same.
                TYPEFORMER_UNROLL
                for (std::size_t q = 0; q < 16; q += 2) {
                    t[q] = _mm512_mask_unpacklo_ps(r[q], all, r[q], r[q + 1]);
                    t[q + 1] = _mm512_mask_unpackhi_ps(r[q], all, r[q], r[q + 1]);
                }
                TYPEFORMER_UNROLL
                for (std::size_t q = 0; q < 16; q += 4) {
                    r[q] = _mm512_mask_shuffle_ps(t[q], all, t[q], t[q + 2], 0x44);
                    r[q + 1] = _mm512_mask_shuffle_ps(t[q], all, t[q], t[q + 2], 0xEE);
                    r[q + 2] = _mm512_mask_shuffle_ps(t[q + 1], all, t[q + 1], t[q + 3], 0x44);
                    r[q + 3] = _mm512_mask_shuffle_ps(t[q + 1], all, t[q + 1], t[q + 3], 0xEE);
                }
                // r[4q + e], 128-bit lane l: rows 4q…4q+3 of column 4l + e.
                TYPEFORMER_UNROLL
                for (std::size_t e = 0; e < 4; ++e) {
                    t[e] = _mm512_mask_shuffle_f32x4(r[e], all, r[e], r[4 + e], 0x88);
                    t[4 + e] = _mm512_mask_shuffle_f32x4(r[e], all, r[e], r[4 + e], 0xDD);
                    t[8 + e] = _mm512_mask_shuffle_f32x4(r[8 + e], all, r[8 + e], r[12 + e], 0x88);
                    t[12 + e] = _mm512_mask_shuffle_f32x4(r[8 + e], all, r[8 + e], r[12 + e], 0xDD);
                }
                TYPEFORMER_UNROLL
                for (std::size_t e = 0; e < 4; ++e) {
                    r[e] = _mm512_mask_shuffle_f32x4(t[e], all, t[e], t[8 + e], 0x88);
                    r[8 + e] = _mm512_mask_shuffle_f32x4(t[e], all, t[e], t[8 + e], 0xDD);
                    r[4 + e] = _mm512_mask_shuffle_f32x4(t[4 + e], all, t[4 + e], t[12 + e], 0x88);
                    r[12 + e] = _mm512_mask_shuffle_f32x4(t[4 + e], all, t[4 + e], t[12 + e], 0xDD);
                }
                for (std::size_t s = 0; s < cnt; ++s)
                    _mm512_store_ps(Ap + (p0 + s) * ld + i0, r[s]);
            }
        }
        return;
    }
#endif
    // W × W blocks, so the reads stay on a few lines of each column of A and the writes on W
    // rows of the panel; with AVX, a whole float block is transposed in registers.
    for (std::size_t i0 = 0; i0 < ld; i0 += W) {
        const std::size_t rows = mb > i0 ? (mb - i0 < W ? mb - i0 : W) : 0;
        for (std::size_t p0 = 0; p0 < kc; p0 += W) {
            const std::size_t cnt = kc - p0 < W ? kc - p0 : W;
#if XSIMD_WITH_AVX
            if constexpr (std::is_same_v<T, float> && W == 8) {
                // A whole 8 × 8 block in registers: unpack pairs, shuffle quads, swap halves.
                if (rows == 8 && cnt == 8) {
                    __m256 r[8], t[8];
                    TYPEFORMER_UNROLL
                    for (std::size_t q = 0; q < 8; ++q)
                        r[q] = _mm256_loadu_ps(A + (i0 + q) * lda + p0);
                    TYPEFORMER_UNROLL
                    for (std::size_t q = 0; q < 8; q += 2) {
                        t[q] = _mm256_unpacklo_ps(r[q], r[q + 1]);
                        t[q + 1] = _mm256_unpackhi_ps(r[q], r[q + 1]);
                    }
                    TYPEFORMER_UNROLL
                    for (std::size_t q = 0; q < 8; q += 4) {
                        r[q] = _mm256_shuffle_ps(t[q], t[q + 2], 0x44);
                        r[q + 1] = _mm256_shuffle_ps(t[q], t[q + 2], 0xEE);
                        r[q + 2] = _mm256_shuffle_ps(t[q + 1], t[q + 3], 0x44);
                        r[q + 3] = _mm256_shuffle_ps(t[q + 1], t[q + 3], 0xEE);
                    }
                    // r[e] (e < 4) holds columns e and 4 + e of rows 0…3 in its halves, r[4 + e]
                    // the same of rows 4…7.
                    TYPEFORMER_UNROLL
                    for (std::size_t e = 0; e < 4; ++e) {
                        _mm256_store_ps(Ap + (p0 + e) * ld + i0,
                                        _mm256_permute2f128_ps(r[e], r[4 + e], 0x20));
                        _mm256_store_ps(Ap + (p0 + 4 + e) * ld + i0,
                                        _mm256_permute2f128_ps(r[e], r[4 + e], 0x31));
                    }
                    continue;
                }
            }
#endif
            for (std::size_t q = 0; q < rows; ++q) {
                const T* a = A + (i0 + q) * lda + p0;
                for (std::size_t s = 0; s < cnt; ++s)
                    Ap[(p0 + s) * ld + i0 + q] = a[s];
            }
            for (std::size_t q = rows; q < W; ++q)
                for (std::size_t s = 0; s < cnt; ++s)
                    Ap[(p0 + s) * ld + i0 + q] = T(0);
        }
    }
}

// C (R, n) ←/+= X·Y for the R ≤ 4 rows of X left after whole batches (m = q·W + R): baby's
// unembedding has m = N_V = 65, whose last row, run as a register tile, would take a batch of
// W rows' FMAs (65 rows cost 80: at most 81% of the peak). Here each row costs its own FMAs at
// a lower rate. X(i, p) = A[i·lda + p] (transpose_a) or A[i + p·lda]; Y(p, j) = B[p·brs + j·bcs].
// Every entry is one chain over p in a fixed order whatever the columns a call covers, so the
// column split over threads still gives the same bits.
template <class T, std::size_t R>
void gemm_few_rows(std::size_t n, std::size_t k, const T* A, std::size_t lda, bool transpose_a,
                   const T* B, std::size_t brs, std::size_t bcs, T* C, std::size_t ldc,
                   bool accumulate) noexcept {
    constexpr std::size_t W = width<T>;
    auto x = [&](std::size_t i, std::size_t p) {
        return transpose_a ? A[i * lda + p] : A[i + p * lda];
    };
    if (bcs == 1) {
        // Y's rows are contiguous (A·Bᵀ): R × 4 batches of columns in registers while p runs,
        // each step loading 4 batches of a row of Y and broadcasting R entries of X.
        constexpr std::size_t JV = 4;
        for (std::size_t j0 = 0; j0 < n; j0 += JV * W) {
            const std::size_t cols = n - j0 < JV * W ? n - j0 : JV * W;
            batch<T> acc[R][JV];
            zero_block(acc);
            std::size_t lanes[JV];  // of each batch of columns (the last block's may be short)
            for (std::size_t q = 0; q < JV; ++q)
                lanes[q] = cols > q * W ? (cols - q * W < W ? cols - q * W : W) : 0;
            auto run = [&](auto whole) {
                for (std::size_t p = 0; p < k; ++p) {
                    const T* b = B + p * brs + j0;
                    batch<T> bv[JV];
                    TYPEFORMER_UNROLL
                    for (std::size_t q = 0; q < JV; ++q)
                        bv[q] = whole()        ? batch<T>::load_unaligned(b + q * W)
                                : lanes[q] > 0 ? load_n(b + q * W, lanes[q])
                                               : batch<T>(T(0));
                    TYPEFORMER_UNROLL
                    for (std::size_t r = 0; r < R; ++r) {
                        const batch<T> a(x(r, p));
                        TYPEFORMER_UNROLL
                        for (std::size_t q = 0; q < JV; ++q)
                            acc[r][q] = xsimd::fma(a, bv[q], acc[r][q]);
                    }
                }
            };
            if (cols == JV * W)
                run(std::true_type{});
            else
                run(std::false_type{});
            for (std::size_t r = 0; r < R; ++r) {
                alignas(64) T out[JV * W];
                TYPEFORMER_UNROLL
                for (std::size_t q = 0; q < JV; ++q)
                    acc[r][q].store_aligned(out + q * W);
                for (std::size_t j = 0; j < cols; ++j) {
                    T& c = C[r + (j0 + j) * ldc];
                    c = accumulate ? c + out[j] : out[j];
                }
            }
        }
        return;
    }
    // Y's columns are contiguous (A·B, Aᵀ·B: brs = 1, as every form has bcs = 1 or brs = 1): dot
    // products over p, 4 columns at a time sharing the loads of X's rows, which are first copied
    // into a contiguous buffer (a chunk at a time).
    constexpr std::size_t KCH = 256;
    alignas(64) T xr[R][KCH];
    for (std::size_t p0 = 0; p0 < k; p0 += KCH) {
        const std::size_t kc = k - p0 < KCH ? k - p0 : KCH;
        for (std::size_t r = 0; r < R; ++r)
            for (std::size_t p = 0; p < kc; ++p)
                xr[r][p] = x(r, p0 + p);
        const bool add = accumulate || p0 > 0;
        auto columns = [&](std::size_t j, auto NJ) {
            constexpr std::size_t nj = decltype(NJ)::value;
            batch<T> acc[R][nj];
            zero_block(acc);
            for_each_run<T>(kc, [&](std::size_t p, std::size_t lanes) {
                batch<T> bv[nj];
                TYPEFORMER_UNROLL
                for (std::size_t q = 0; q < nj; ++q)
                    bv[q] = load_n(B + (p0 + p) * brs + (j + q) * bcs, lanes);
                TYPEFORMER_UNROLL
                for (std::size_t r = 0; r < R; ++r) {
                    const batch<T> a = load_n(xr[r] + p, lanes);
                    TYPEFORMER_UNROLL
                    for (std::size_t q = 0; q < nj; ++q)
                        acc[r][q] = xsimd::fma(a, bv[q], acc[r][q]);
                }
            });
            for (std::size_t r = 0; r < R; ++r)
                for (std::size_t q = 0; q < nj; ++q) {
                    T& c = C[r + (j + q) * ldc];
                    const T s = xsimd::hadd(acc[r][q]);
                    c = add ? c + s : s;
                }
        };
        std::size_t j = 0;
        for (; j + 4 <= n; j += 4)
            columns(j, std::integral_constant<std::size_t, 4>{});
        for (; j < n; ++j)
            columns(j, std::integral_constant<std::size_t, 1>{});
    }
}

// The source of the panel packed after the one that ends at row i_next of slice [plo, plo + kc):
// the next rows of the slice up to the row block's end ic_end, else the block's first rows (ic)
// in the next slice, which starts at next_lo (none past kb_last).
template <class T>
panel_prefetch next_panel(const T* A, std::size_t lda, bool transpose_a, std::size_t i_next,
                          std::size_t ic_end, std::size_t plo, std::size_t kc, std::size_t ic,
                          std::size_t next_lo, std::size_t kb_last) noexcept {
    constexpr std::size_t KC = gemm_blocking<T>::KC, MR = gemm_blocking<T>::MR_max;
    std::size_t i = i_next, lo = plo, cols = kc;
    if (i_next >= ic_end) {
        i = ic;
        lo = next_lo;
        cols = next_lo < kb_last ? (kb_last - next_lo < KC ? kb_last - next_lo : KC) : 0;
    }
    const std::size_t rows = ic_end - i < MR ? ic_end - i : MR;
    if (cols == 0 || rows == 0)
        return {};
    if (transpose_a)  // X(i, p) = A[i·lda + p]: a strip per row of the panel
        return {reinterpret_cast<const char*>(A + i * lda + lo), rows, cols * sizeof(T),
                lda * sizeof(T)};
    return {reinterpret_cast<const char*>(A + i + lo * lda), cols, rows * sizeof(T),
            lda * sizeof(T)};
}

// The blocked driver: C (m, n) ←/+= X·Y with X = A (transpose_a: Aᵀ) of leading dimension lda,
// Y(p, j) = B[p·brs + j·bcs]. Loop order: column block jc (B's block in L2), row block ic
// (C's block in L2), k slice pc, row panel (A's packed panel in L1), register tile. A row
// block of MC rows cut the tall products' time (gpt2, m = 2304…50257, k = 768) by ~20%.
// Under a band, a column block packs and runs only the rows and terms its columns need; the
// k slices stay at multiples of KC, so every entry is the same chain of FMAs as without the band
// and as in any column split. An epilogue is added in each register tile on its last k slice
// (with a band or k = 0, which the nn blocks never give it, as a pass afterwards).
template <class T>
void gemm_driver(std::size_t m, std::size_t n, std::size_t k, const T* A, std::size_t lda,
                 bool transpose_a, const T* B, std::size_t brs, std::size_t bcs, T* C,
                 std::size_t ldc, bool accumulate, gemm_band band = {},
                 const gemm_epilogue<T>& epilogue = {}) noexcept {
    using blk = gemm_blocking<T>;
    constexpr std::size_t W = blk::W;
    if (m == 0 || n == 0)
        return;
    if (!epilogue.empty() && (k == 0 || band.what != gemm_band::kind::none)) {
        gemm_driver(m, n, k, A, lda, transpose_a, B, brs, bcs, C, ldc, accumulate, band);
        apply_epilogue(m, n, C, ldc, epilogue);
        return;
    }
    // Columns no term reaches (a k band empty for them, or k = 0) are the empty sum.
    if (!accumulate && (k == 0 || band.what == gemm_band::kind::k_to_col ||
                        band.what == gemm_band::kind::k_from_col))
        for (std::size_t j = 0; j < n; ++j)
            if (band.k_first(k, j) >= band.k_last(k, j + 1))
                for (std::size_t i = 0; i < band.rows_upto(m, j + 1); ++i)
                    C[i + j * ldc] = T(0);
    if (k == 0)
        return;
    // A short last batch of rows (≤ W/4 rows after whole batches) goes to gemm_few_rows, its
    // epilogue as a pass; the whole batches stay here. Not under a band (attention's l × l
    // products, which the band's row limits cut anyway).
    if (const std::size_t rest = m % W;
        band.what == gemm_band::kind::none && m > W && rest != 0 && rest <= W / 4) {
        const std::size_t m0 = m - rest;
        gemm_driver(m0, n, k, A, lda, transpose_a, B, brs, bcs, C, ldc, accumulate, band, epilogue);
        with_constant<W / 4>(rest, [&](auto R) {
            gemm_few_rows<T, R()>(n, k, transpose_a ? A + m0 * lda : A + m0, lda, transpose_a, B,
                                  brs, bcs, C + m0, ldc, accumulate);
        });
        if (!epilogue.empty())
            apply_epilogue(rest, n, C + m0, ldc, epilogue.at(m0, 0));
        return;
    }
    alignas(64) T Ap[blk::MR_max * blk::KC];
    // With few k slices, sweeping all of C once per slice costs less than re-reading B's block
    // for every row block: then one row block spans all of m (B's block stays in L2 instead).
    const std::size_t MC = k <= 2 * blk::KC ? m : blk::MC;
    // A C of more than 256 KiB (half of a Zen 3 core's L2) has left the cache by the time a tile
    // comes back to it on the next k slice: each tile asks for its lines before its k loop.
    // Below that the prefetches only cost issue slots (~2% at tiny's shapes).
    const bool prefetch_c = m * n * sizeof(T) > 256 * 1024;
    // An A (not Aᵀ) of at most 256 KiB stays in L2 (or L1) after the panel's first tile: the
    // tiles read its columns in place rather than from a packed copy (the panels of whole
    // batches; a ragged last one is still packed, zero-padded). Copying costs more than the
    // strided reads: tiny's products 4–8% faster than packed, small's forward pass 2–5% (Zen 4;
    // not yet timed on an AVX2 core, whose L2 is half as large).
    const bool in_place = !transpose_a && m * k * sizeof(T) <= 256 * 1024;
    // An A larger than L2 comes from L3 or memory at each pack (a weight matrix of baby or gpt2,
    // read once per sequence): ask for the next panel's lines while the tiles run.
    const bool prefetch_a = m * k * sizeof(T) > 1024 * 1024;
    // A·Bᵀ (the weight gradients dW = dY·Xᵀ): a tile reads one row of B per k step, brs apart.
    // Up to 2 KiB the cores' stride prefetchers fetch those rows ahead; beyond (baby's
    // mlp_down.dW: rows of X 6 KiB apart, which also fall into 2 of L1's 64 sets) every step waits
    // for L2: 61–64% of the peak with the AVX2 tile. Then each (column block, k slice) of B is
    // first copied column by column (a transposition, gemm_pack_at) into Bp, which the tiles read
    // as they read A·B's B: 77%. The column blocks are narrower (NCP) so that Bp fits the stack,
    // and A is packed once per block; both copies cost more than they gain at 2 KiB and below
    // (baby's attn_out.dW, 1.5 KiB: 84 → 77%). Not under a band (attention's backward leaves
    // B's entries past the band unwritten).
    const bool pack_b = bcs == 1 && brs * sizeof(T) > 2048 && band.what == gemm_band::kind::none &&
                        m >= 2 * gemm_mv * W && k >= 2 * W;
    alignas(64) T Bp[blk::KCP * blk::NCP];
    for (std::size_t jc = 0, nc = 0; jc < n; jc += nc) {
        // The last block takes a remainder of up to NC/4 along: a block of 16 columns after 240
        // (baby's n = 256) would pack all of A again for a sixteenth of the work.
        nc = pack_b                            ? (n - jc < blk::NCP ? n - jc : blk::NCP)
             : n - jc <= blk::NC + blk::NC / 4 ? n - jc
                                               : blk::NC;
        const gemm_band b = band.shifted(jc);
        const std::size_t mb_end = b.rows_upto(m, nc);  // rows wanted by the block's columns
        const std::size_t kb_first = b.k_first(k, 0), kb_last = b.k_last(k, nc);
        if (kb_first >= kb_last)
            continue;  // no term reaches these columns: zeroed above, or left to accumulate
        for (std::size_t ic = 0; ic < mb_end;) {
            // The last block takes a short remainder along rather than leaving it alone.
            const std::size_t mc = mb_end - ic <= MC + gemm_mv * W ? mb_end - ic : MC;
            for (std::size_t pc = kb_first / blk::KC * blk::KC; pc < kb_last; pc += blk::KC) {
                // Pack and run only the terms [plo, phi) of this slice some column needs.
                const std::size_t plo = pc > kb_first ? pc : kb_first;
                const std::size_t phi = k - pc < blk::KC ? k : pc + blk::KC;
                const std::size_t kc = (phi < kb_last ? phi : kb_last) - plo;
                const T* Bb = B + plo * brs + jc * bcs;  // the block's B(plo, 0), strides brs, bcs
                std::size_t rs = brs, cs = bcs;
                if (pack_b) {  // Bp[p + j·KCP] = B(plo + p, jc + j)
                    gemm_pack_at(kc, nc, Bb, brs, Bp, blk::KCP / W);
                    Bb = Bp;
                    rs = 1;
                    cs = blk::KCP;
                }
                for (std::size_t ir = 0; ir < mc;) {
                    const std::size_t i = ic + ir;
                    const std::size_t nv = gemm_tile_batches((mc - ir + W - 1) / W);
                    const std::size_t mb = mc - ir < nv * W ? mc - ir : nv * W;
                    const gemm_epilogue<T> ep = epilogue.at(i, jc);
                    const panel_prefetch next =
                        prefetch_a ? next_panel(A, lda, transpose_a, i + mb, ic + mc, plo, kc, ic,
                                                pc + blk::KC, kb_last)
                                   : panel_prefetch{};
                    with_constant<gemm_mv_max>(nv, [&](auto NV) {
                        const T* panel = Ap;
                        std::size_t panel_ld = NV() * W;
                        if (in_place && mb == NV() * W) {
                            panel = A + i + plo * lda;  // whole batches of A's columns, as they are
                            panel_ld = lda;
                        } else if (transpose_a) {
                            gemm_pack_at(mb, kc, A + i * lda + plo, lda, Ap, NV());
                        } else {
                            gemm_pack_a<T, NV()>(mb, kc, A + i + plo * lda, lda, Ap);
                        }
                        gemm_panel<T, NV()>(nc, k, pc, plo, plo + kc, panel, panel_ld, Bb, rs, cs,
                                            C + i + jc * ldc, ldc, i, mb - (NV() - 1) * W,
                                            accumulate, b, epilogue.empty() ? nullptr : &ep,
                                            prefetch_c, next);
                    });
                    ir += mb;
                }
            }
            ic += mc;
        }
    }
}

// C(i, j) ←/+= A[:, i]·B[:, j] for contiguous columns (Aᵀ·B with few columns, Aᵀ·x): blocks of
// 4 dot products share loads; each accumulates in batches and is reduced once at the end.
// At -O3, once this is inlined next to a fixed-size mat, GCC 12 warns that an iteration count
// near 2^62 of the k loops would overflow the array: k is a run-time extent checked against the
// array's size by the typed layer, so that count is unreachable.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Waggressive-loop-optimizations"
#endif
template <class T>
void gemm_tn_dot(std::size_t m, std::size_t n, std::size_t k, const T* A, std::size_t lda,
                 const T* B, std::size_t ldb, T* C, std::size_t ldc, bool accumulate) noexcept {
    constexpr std::size_t W = width<T>;
    constexpr std::size_t MI = 4;
    const std::size_t kv = k / W * W;
    for (std::size_t j = 0; j < n; ++j) {
        const T* b = B + j * ldb;
        std::size_t i = 0;
        for (; i + MI <= m; i += MI) {
            batch<T> acc[MI];
            TYPEFORMER_UNROLL
            for (std::size_t q = 0; q < MI; ++q)
                acc[q] = batch<T>(T(0));
            for (std::size_t p = 0; p < kv; p += W) {
                const batch<T> bv = batch<T>::load_unaligned(b + p);
                TYPEFORMER_UNROLL
                for (std::size_t q = 0; q < MI; ++q)
                    acc[q] =
                        xsimd::fma(batch<T>::load_unaligned(A + (i + q) * lda + p), bv, acc[q]);
            }
            for (std::size_t q = 0; q < MI; ++q) {
                T s = xsimd::hadd(acc[q]);
                const T* a = A + (i + q) * lda;
                for (std::size_t p = kv; p < k; ++p)
                    s += a[p] * b[p];
                T& c = C[i + q + j * ldc];
                c = accumulate ? c + s : s;
            }
        }
        for (; i < m; ++i) {
            const T* a = A + i * lda;
            batch<T> acc(T(0));
            for (std::size_t p = 0; p < kv; p += W)
                acc = xsimd::fma(batch<T>::load_unaligned(a + p), batch<T>::load_unaligned(b + p),
                                 acc);
            T s = xsimd::hadd(acc);
            for (std::size_t p = kv; p < k; ++p)
                s += a[p] * b[p];
            T& c = C[i + j * ldc];
            c = accumulate ? c + s : s;
        }
    }
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

// y ←/+= A·x: A streams once, in memory order. A sweep takes G adjacent columns (G·m contiguous
// scalars) down all rows, adding their G terms to each batch of y in two chains (even and odd
// columns, so FMA latency is hidden); y (a few KB) stays in L1 between sweeps. Keeping a block of
// y in registers while p runs instead walks A across its columns, lda apart: on the Zen 4 of
// 2026-11-26 that read baby's decoding weights (43 MB) at 10–16 GB/s, the sweeps at 18–21 GB/s,
// the core's plain streaming read rate. Row i's terms are added in the same order whatever rows
// the call covers, so any split of the rows gives the same bits.
template <class T>
void gemv_n_impl(std::size_t m, std::size_t k, const T* A, std::size_t lda, const T* x, T* y,
                 bool accumulate) noexcept {
    constexpr std::size_t W = width<T>;
    constexpr std::size_t G = 16;
    auto sweep = [&](std::size_t p, auto cols, bool first) {
        constexpr std::size_t g = decltype(cols)::value;
        batch<T> xs[g];
        TYPEFORMER_UNROLL
        for (std::size_t q = 0; q < g; ++q)
            xs[q] = batch<T>(x[p + q]);
        const T* a = A + p * lda;
        auto rows_at = [&](std::size_t i, std::size_t rows) {
            batch<T> even = first ? batch<T>(T(0)) : load_n(y + i, rows);
            batch<T> odd(T(0));
            TYPEFORMER_UNROLL
            for (std::size_t q = 0; q < g; ++q) {
                batch<T>& acc = q % 2 == 0 ? even : odd;
                acc = xsimd::fma(load_n(a + q * lda + i, rows), xs[q], acc);
            }
            store_n(y + i, even + odd, rows);
        };
        std::size_t i = 0;
        for (; i + W <= m; i += W)
            rows_at(i, W);  // (load_n of a full batch: one plain load once inlined)
        if (i < m)
            rows_at(i, m - i);
    };
    std::size_t p = 0;
    for (; p + G <= k; p += G)
        sweep(p, std::integral_constant<std::size_t, G>{}, p == 0 && !accumulate);
    if (p < k)
        with_constant<G - 1>(k - p, [&](auto g) { sweep(p, g, p == 0 && !accumulate); });
    else if (k == 0 && !accumulate)
        for (std::size_t i = 0; i < m; ++i)
            y[i] = T(0);
}

// Threads for the one-column products of decoding (Deliver 1 of issue 11): y = A·x streams A
// once and does 2 flops per element loaded, so it is bound by memory bandwidth. Built with
// OpenMP (-fopenmp) and given an operand of at least parallel_rows_min elements, the rows are cut
// into chunks (of whole `unit`s, the tail in the last chunk) spread over the threads with a
// static schedule. Every row is computed by the same instructions in the same order as on one
// thread, so the result is bit-identical to one thread and run to run, whatever the thread
// count. Inside a parallel region (the training workers) no region is opened (worth_a_team).
// Without OpenMP (microcontrollers, the tests' default) this is a plain call.
//
// The threshold, 2^20 elements (4 MB of float: gpt2's big maps, none of baby's): one core's sweep
// reads at nearly the core's streaming rate, a second core adds less than that, and waking a
// sleeping thread (OMP_WAIT_POLICY=passive) costs tens of µs. At 2^16 on the Zen 4 of 2026-11-26,
// 2 threads decoded small ~6× and baby 1.2–1.4× slower per token than 1 thread; at 2^20 small's
// and baby's products open no region (baby: 2.8 ms a token on 2 threads, 3.7–4.1 at 2^16) and
// gpt2's keep their gain. Define TYPEFORMER_PARALLEL_ROWS_MIN
// to change it (the thread tests set it low so that small operands are split).
#if defined(TYPEFORMER_PARALLEL_ROWS_MIN)
inline constexpr std::size_t parallel_rows_min = TYPEFORMER_PARALLEL_ROWS_MIN;
#else
inline constexpr std::size_t parallel_rows_min = std::size_t{1} << 20;
#endif

#if defined(_OPENMP)
// No region at all when it would get one thread (one allowed, or nested inside the training
// workers' region): libgomp allocates a team for every one-thread region, and a step allocates
// nothing.
inline bool worth_a_team() noexcept {
    return omp_get_max_threads() > 1 && !omp_in_parallel();
}
#endif

// f(first, count) over [0, n) in `chunks` pieces of whole `unit`s (the tail in the last piece),
// on the OpenMP threads with a static schedule when `big` and a team is worth it; else one call.
// The pieces depend on n, unit and chunks only, never on the thread count.
template <class F>
void parallel_chunks(std::size_t n, std::size_t unit, std::size_t chunks, bool big,
                     F&& f) noexcept {
#if defined(_OPENMP)
    if (big && n >= 2 * unit && worth_a_team()) {
        const std::size_t per = (n / unit + chunks - 1) / chunks * unit;  // items per piece
        const std::size_t pieces = (n + per - 1) / per;
#pragma omp parallel for schedule(static)
        for (std::size_t c = 0; c < pieces; ++c) {
            const std::size_t first = c * per;
            f(first, (n - first < per ? n - first : per));
        }
        return;
    }
#else
    (void)unit, (void)chunks, (void)big;
#endif
    f(std::size_t{0}, n);
}

// 8 pieces: 4 a thread on 2 cores, short tails when one lags.
template <class F>
void parallel_rows(std::size_t m, std::size_t k, std::size_t unit, F&& rows) noexcept {
    parallel_chunks(m, unit, 8, m * k >= parallel_rows_min, static_cast<F&&>(rows));
}

// One piece per thread, for gemv_n_impl: its sweeps read each column's rows of the piece as one
// run, and 8 pieces would cut those runs to a few lines (m = 384: 3) lda apart. Its rows do not
// depend on the split, so the result still does not depend on the thread count.
template <class F>
void parallel_row_runs(std::size_t m, std::size_t k, std::size_t unit, F&& rows) noexcept {
#if defined(_OPENMP)
    const auto threads = static_cast<std::size_t>(omp_get_max_threads());
#else
    constexpr std::size_t threads = 1;
#endif
    parallel_chunks(m, unit, threads, m * k >= parallel_rows_min, static_cast<F&&>(rows));
}

// The same for the products of one sequence (B = 1 training, a single forward pass): C's
// columns (positions) are independent, so with OpenMP, outside any other parallel region, and at
// least parallel_cols_min multiply-adds, they are cut into 4 chunks of whole 8-column groups
// (fixed, whatever the thread count) and the driver runs on each chunk with its own packing. A
// column's entries are the same FMA chains over k, slice by slice, in whichever chunk and tile
// it lands, so the result is bit-identical to the unsplit call (tests/kernels/threads_test.cpp).
inline constexpr std::size_t parallel_cols_min = std::size_t{1} << 21;  // 2 M multiply-adds

// Below this many columns a band is not worth its shorter, ragged tiles: one head of tiny
// (l = 32) ran its lines 4–6 and their backward 12% slower with the skip than without it, small's
// (l = 128) 1.6× faster (bench_kernels' <config>/attention_head rows). The band is a permission,
// so ignoring it changes no wanted entry.
inline constexpr std::size_t band_cols_min = 64;
inline gemm_band worth_skipping(gemm_band band, std::size_t n) noexcept {
    return n >= band_cols_min ? band : gemm_band{};
}

// cols(j0, nc, band) runs the driver on columns [j0, j0 + nc) with the band as seen from there.
template <class F>
void parallel_cols(std::size_t m, std::size_t n, std::size_t k, gemm_band band, F&& cols) noexcept {
    band = worth_skipping(band, n);
#if defined(_OPENMP)
    if (band.what != gemm_band::kind::none && m * n * k >= parallel_cols_min && n >= 16 &&
        worth_a_team()) {
        // A band makes the work grow or shrink along the columns: 4 chunks of about equal work
        // (rows wanted × terms, per 8-column group) instead of equal width, so the 2 threads
        // finish together. The cuts depend on the shape and the band only.
        auto work = [&](std::size_t j0, std::size_t j1) {
            const std::size_t first = band.k_first(k, j0), last = band.k_last(k, j1);
            return band.rows_upto(m, j1) * (last > first ? last - first : 0) * (j1 - j0);
        };
        std::size_t total = 0;
        for (std::size_t j = 0; j < n; j += 8)
            total += work(j, j + 8 < n ? j + 8 : n);
        std::size_t cut[5] = {0, n, n, n, n}, done = 0, c = 1;
        for (std::size_t j = 0; j < n && c < 4; j += 8) {
            done += work(j, j + 8 < n ? j + 8 : n);
            if (done * 4 >= total * c && j + 8 < n)
                cut[c++] = j + 8;
        }
#pragma omp parallel for schedule(static)
        for (std::size_t q = 0; q < 4; ++q)
            if (cut[q + 1] > cut[q])
                cols(cut[q], cut[q + 1] - cut[q], band.shifted(cut[q]));
        return;
    }
#endif
    parallel_chunks(n, 8, 4, m * n * k >= parallel_cols_min,
                    [&](std::size_t j0, std::size_t nc) { cols(j0, nc, band.shifted(j0)); });
}

}  // namespace typeformer::kernels::simd_impl

namespace typeformer::kernels::simd {

// `ep`: the fused epilogue (scalar/gemm.hpp); on the one- and few-column paths, which have no
// register tiles, a pass over each thread's rows after their product.
template <class T>
void gemm_nn(std::size_t m, std::size_t n, std::size_t k, const T* A, std::size_t lda, const T* B,
             std::size_t ldb, T* C, std::size_t ldc, bool accumulate, gemm_band band = {},
             const gemm_epilogue<T>& ep = {}) noexcept {
    if constexpr (!simd_impl::has_batch<T>)
        scalar::gemm_nn(m, n, k, A, lda, B, ldb, C, ldc, accumulate, band, ep);
    else if (n == 1)  // one column: A streams once, nothing to reuse a packed panel for
        // (pieces of whole 4-batch blocks, as parallel_rows cuts them)
        simd_impl::parallel_row_runs(
            m, k, 4 * simd_impl::width<T>, [&](std::size_t r0, std::size_t mr) {
                simd_impl::gemv_n_impl(mr, k, A + r0, lda, B, C + r0, accumulate);
                if (!ep.empty())
                    simd_impl::apply_epilogue(mr, n, C + r0, ldc, ep.at(r0, 0));
            });
    else
        simd_impl::parallel_cols(m, n, k, band, [&](std::size_t j0, std::size_t nc, gemm_band b) {
            simd_impl::gemm_driver(m, nc, k, A, lda, false, B + j0 * ldb, 1, ldb, C + j0 * ldc, ldc,
                                   accumulate, b, ep.at(0, j0));
        });
}

template <class T>
void gemm_nt(std::size_t m, std::size_t n, std::size_t k, const T* A, std::size_t lda, const T* B,
             std::size_t ldb, T* C, std::size_t ldc, bool accumulate, gemm_band band = {},
             const gemm_epilogue<T>& ep = {}) noexcept {
    if constexpr (!simd_impl::has_batch<T>)
        scalar::gemm_nt(m, n, k, A, lda, B, ldb, C, ldc, accumulate, band, ep);
    else
        simd_impl::parallel_cols(m, n, k, band, [&](std::size_t j0, std::size_t nc, gemm_band b) {
            simd_impl::gemm_driver(m, nc, k, A, lda, false, B + j0, ldb, 1, C + j0 * ldc, ldc,
                                   accumulate, b, ep.at(0, j0));
        });
}

template <class T>
void gemm_tn(std::size_t m, std::size_t n, std::size_t k, const T* A, std::size_t lda, const T* B,
             std::size_t ldb, T* C, std::size_t ldc, bool accumulate, gemm_band band = {},
             const gemm_epilogue<T>& ep = {}) noexcept {
    if constexpr (!simd_impl::has_batch<T>)
        scalar::gemm_tn(m, n, k, A, lda, B, ldb, C, ldc, accumulate, band, ep);
    else if (n < 4)  // too few columns to pay for transposing A's panel
        simd_impl::parallel_rows(m, k, 4, [&](std::size_t r0, std::size_t mr) {
            simd_impl::gemm_tn_dot(mr, n, k, A + r0 * lda, lda, B, ldb, C + r0, ldc, accumulate);
            if (!ep.empty())
                simd_impl::apply_epilogue(mr, n, C + r0, ldc, ep.at(r0, 0));
        });
    else
        simd_impl::parallel_cols(m, n, k, band, [&](std::size_t j0, std::size_t nc, gemm_band b) {
            simd_impl::gemm_driver(m, nc, k, A, lda, true, B + j0 * ldb, 1, ldb, C + j0 * ldc, ldc,
                                   accumulate, b, ep.at(0, j0));
        });
}

template <class T>
void gemv_n(std::size_t m, std::size_t k, const T* A, std::size_t lda, const T* x, T* y,
            bool accumulate) noexcept {
    if constexpr (!simd_impl::has_batch<T>)
        scalar::gemv_n(m, k, A, lda, x, y, accumulate);
    else
        gemm_nn(m, std::size_t{1}, k, A, lda, x, k, y, m, accumulate);
}

template <class T>
void gemv_t(std::size_t m, std::size_t k, const T* A, std::size_t lda, const T* x, T* y,
            bool accumulate) noexcept {
    gemm_tn(m, 1, k, A, lda, x, k, y, m, accumulate);
}

}  // namespace typeformer::kernels::simd
