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
// strides swapped). A is copied into a small stack panel (MR × KC, contiguous, zero-padded
// rows) so the micro-kernel streams it linearly; for Aᵀ the copy is the transposition. k is
// cut into KC-long slices so that panel stays in L1. No heap anywhere.
#pragma once

#include <cstddef>
#include <utility>

#include "../scalar/gemm.hpp"
#include "common.hpp"

namespace typeformer::kernels::simd_impl {

// Register blocking: 32 vector registers (AVX-512, NEON64) hold 3×8 accumulators, 16 hold 2×6.
#if XSIMD_WITH_AVX512F || XSIMD_WITH_NEON64
inline constexpr std::size_t gemm_mv = 3, gemm_nr = 8;
#else
inline constexpr std::size_t gemm_mv = 2, gemm_nr = 6;
#endif

template <class T>
struct gemm_blocking {
    static constexpr std::size_t W = width<T>;
    static constexpr std::size_t MR = gemm_mv * W;
    // A's panel, MR × KC, about 24 KiB: it stays in L1 while the micro-kernel sweeps the columns.
    static constexpr std::size_t KC = (24 * 1024 / (MR * sizeof(T)) < 64)
                                          ? 64
                                          : 24 * 1024 / (MR * sizeof(T)) / 8 * 8;
    // B's block, KC × NC, about 256 KiB: it stays in L2 while the row panels go by.
    static constexpr std::size_t NC = (256 * 1024 / (KC * sizeof(T))) / gemm_nr * gemm_nr;
};

// C[0:MV·W (last batch: mlast rows), 0:NR] ←/+= Ap (MV·W × kc, ld MV·W) · B (kc × NR, strides rs, cs)
template <class T, std::size_t MV, std::size_t NR>
void gemm_micro(std::size_t kc, const T* Ap, const T* B, std::size_t rs, std::size_t cs, T* C,
                std::size_t ldc, std::size_t mlast, bool accumulate) noexcept {
    constexpr std::size_t W = width<T>;
    constexpr std::size_t lda = MV * W;
    // The accumulators must stay in registers: every loop over MV or NR is unrolled completely.
    batch<T> acc[MV][NR];
    TYPEFORMER_UNROLL
    for (std::size_t j = 0; j < NR; ++j) {
        TYPEFORMER_UNROLL
        for (std::size_t v = 0; v < MV; ++v) acc[v][j] = batch<T>(T(0));
    }
    for (std::size_t p = 0; p < kc; ++p) {
        const T* a = Ap + p * lda;
        const T* b = B + p * rs;
        batch<T> av[MV];
        TYPEFORMER_UNROLL
        for (std::size_t v = 0; v < MV; ++v) av[v] = batch<T>::load_aligned(a + v * W);
        TYPEFORMER_UNROLL
        for (std::size_t j = 0; j < NR; ++j) {
            const batch<T> bj(b[j * cs]);
            TYPEFORMER_UNROLL
            for (std::size_t v = 0; v < MV; ++v) acc[v][j] = xsimd::fma(av[v], bj, acc[v][j]);
        }
    }
    TYPEFORMER_UNROLL
    for (std::size_t j = 0; j < NR; ++j) {
        T* c = C + j * ldc;
        TYPEFORMER_UNROLL
        for (std::size_t v = 0; v < MV; ++v) {
            const std::size_t rows = v + 1 == MV ? mlast : W;
            batch<T> r = acc[v][j];
            if (accumulate) r += load_n(c + v * W, rows);
            store_n(c + v * W, r, rows);
        }
    }
}

// Picks the micro-kernel for nv batches of rows and nr columns (both ≤ the register block).
template <class T, std::size_t MV>
void gemm_micro_nr(std::size_t nr, std::size_t kc, const T* Ap, const T* B, std::size_t rs,
                   std::size_t cs, T* C, std::size_t ldc, std::size_t mlast, bool accumulate) noexcept {
    [&]<std::size_t... J>(std::index_sequence<J...>) {
        ((nr == J + 1 ? gemm_micro<T, MV, J + 1>(kc, Ap, B, rs, cs, C, ldc, mlast, accumulate)
                      : void()),
         ...);
    }(std::make_index_sequence<gemm_nr>{});
}

template <class T>
void gemm_micro_any(std::size_t nv, std::size_t nr, std::size_t kc, const T* Ap, const T* B,
                    std::size_t rs, std::size_t cs, T* C, std::size_t ldc, std::size_t mlast,
                    bool accumulate) noexcept {
    [&]<std::size_t... V>(std::index_sequence<V...>) {
        ((nv == V + 1 ? gemm_micro_nr<T, V + 1>(nr, kc, Ap, B, rs, cs, C, ldc, mlast, accumulate)
                      : void()),
         ...);
    }(std::make_index_sequence<gemm_mv>{});
}

// Ap (nv·W × kc) ← rows [0, mb) of the (mb × kc) block at A, X(i, p) = A[i·ars + p·acs];
// rows past mb are zero.
template <class T>
void gemm_pack_a(std::size_t mb, std::size_t kc, const T* A, std::size_t ars, std::size_t acs,
                 T* Ap, std::size_t nv) noexcept {
    constexpr std::size_t W = width<T>;
    const std::size_t ld = nv * W;
    if (ars == 1) {  // A·B, A·Bᵀ: rows of a column are contiguous, copy by batches
        const std::size_t full = mb / W;
        for (std::size_t p = 0; p < kc; ++p) {
            const T* a = A + p * acs;
            T* d = Ap + p * ld;
            for (std::size_t v = 0; v < full; ++v)
                batch<T>::load_unaligned(a + v * W).store_aligned(d + v * W);
            for (std::size_t i = full * W; i < ld; ++i) d[i] = i < mb ? a[i] : T(0);
        }
    } else {  // Aᵀ·B: row i of Aᵀ is the contiguous column i of A; transpose into the panel
        for (std::size_t i = 0; i < mb; ++i) {
            const T* a = A + i * ars;
            for (std::size_t p = 0; p < kc; ++p) Ap[p * ld + i] = a[p * acs];
        }
        for (std::size_t p = 0; p < kc; ++p)
            for (std::size_t i = mb; i < ld; ++i) Ap[p * ld + i] = T(0);
    }
}

// The blocked driver: C (m, n) ←/+= X·Y with X(i, p) = A[i·ars + p·acs], Y(p, j) = B[p·brs + j·bcs].
template <class T>
void gemm_driver(std::size_t m, std::size_t n, std::size_t k, const T* A, std::size_t ars,
                 std::size_t acs, const T* B, std::size_t brs, std::size_t bcs, T* C,
                 std::size_t ldc, bool accumulate) noexcept {
    using blk = gemm_blocking<T>;
    constexpr std::size_t W = blk::W;
    if (m == 0 || n == 0) return;
    if (k == 0) {
        if (!accumulate)
            for (std::size_t j = 0; j < n; ++j)
                for (std::size_t i = 0; i < m; ++i) C[i + j * ldc] = T(0);
        return;
    }
    alignas(64) T Ap[blk::MR * blk::KC];
    for (std::size_t pc = 0; pc < k; pc += blk::KC) {
        const std::size_t kc = k - pc < blk::KC ? k - pc : blk::KC;
        const bool acc = accumulate || pc > 0;
        for (std::size_t jc = 0; jc < n; jc += blk::NC) {
            const std::size_t nc = n - jc < blk::NC ? n - jc : blk::NC;
            for (std::size_t ic = 0; ic < m; ic += blk::MR) {
                const std::size_t mb = m - ic < blk::MR ? m - ic : blk::MR;
                const std::size_t nv = (mb + W - 1) / W;
                const std::size_t mlast = mb - (nv - 1) * W;
                gemm_pack_a(mb, kc, A + ic * ars + pc * acs, ars, acs, Ap, nv);
                for (std::size_t jr = 0; jr < nc; jr += gemm_nr) {
                    const std::size_t nr = nc - jr < gemm_nr ? nc - jr : gemm_nr;
                    const std::size_t j = jc + jr;
                    gemm_micro_any(nv, nr, kc, Ap, B + pc * brs + j * bcs, brs, bcs,
                                   C + ic + j * ldc, ldc, mlast, acc);
                }
            }
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
            for (std::size_t q = 0; q < MI; ++q) acc[q] = batch<T>(T(0));
            for (std::size_t p = 0; p < kv; p += W) {
                const batch<T> bv = batch<T>::load_unaligned(b + p);
                TYPEFORMER_UNROLL
                for (std::size_t q = 0; q < MI; ++q)
                    acc[q] = xsimd::fma(batch<T>::load_unaligned(A + (i + q) * lda + p), bv, acc[q]);
            }
            for (std::size_t q = 0; q < MI; ++q) {
                T s = xsimd::hadd(acc[q]);
                const T* a = A + (i + q) * lda;
                for (std::size_t p = kv; p < k; ++p) s += a[p] * b[p];
                T& c = C[i + q + j * ldc];
                c = accumulate ? c + s : s;
            }
        }
        for (; i < m; ++i) {
            const T* a = A + i * lda;
            batch<T> acc(T(0));
            for (std::size_t p = 0; p < kv; p += W)
                acc = xsimd::fma(batch<T>::load_unaligned(a + p), batch<T>::load_unaligned(b + p), acc);
            T s = xsimd::hadd(acc);
            for (std::size_t p = kv; p < k; ++p) s += a[p] * b[p];
            T& c = C[i + j * ldc];
            c = accumulate ? c + s : s;
        }
    }
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

// y ←/+= A·x: A's columns stream once; 4 batches of y stay in registers while p runs, in two
// sets of accumulators (even and odd p) so the FMA latency is hidden.
template <class T>
void gemv_n_impl(std::size_t m, std::size_t k, const T* A, std::size_t lda, const T* x, T* y,
                 bool accumulate) noexcept {
    constexpr std::size_t W = width<T>;
    constexpr std::size_t MV = 4;
    std::size_t i = 0;
    for (; i + MV * W <= m; i += MV * W) {
        batch<T> acc0[MV], acc1[MV];
        TYPEFORMER_UNROLL
        for (std::size_t v = 0; v < MV; ++v) acc0[v] = acc1[v] = batch<T>(T(0));
        std::size_t p = 0;
        for (; p + 2 <= k; p += 2) {
            const batch<T> x0(x[p]), x1(x[p + 1]);
            const T* a0 = A + i + p * lda;
            const T* a1 = a0 + lda;
            TYPEFORMER_UNROLL
            for (std::size_t v = 0; v < MV; ++v) {
                acc0[v] = xsimd::fma(batch<T>::load_unaligned(a0 + v * W), x0, acc0[v]);
                acc1[v] = xsimd::fma(batch<T>::load_unaligned(a1 + v * W), x1, acc1[v]);
            }
        }
        if (p < k) {
            const batch<T> x0(x[p]);
            const T* a0 = A + i + p * lda;
            TYPEFORMER_UNROLL
            for (std::size_t v = 0; v < MV; ++v)
                acc0[v] = xsimd::fma(batch<T>::load_unaligned(a0 + v * W), x0, acc0[v]);
        }
        TYPEFORMER_UNROLL
        for (std::size_t v = 0; v < MV; ++v) {
            batch<T> r = acc0[v] + acc1[v];
            if (accumulate) r += batch<T>::load_unaligned(y + i + v * W);
            r.store_unaligned(y + i + v * W);
        }
    }
    for (; i < m; i += W) {
        const std::size_t rows = m - i < W ? m - i : W;
        batch<T> acc(T(0));
        for (std::size_t p = 0; p < k; ++p)
            acc = xsimd::fma(load_n(A + i + p * lda, rows), batch<T>(x[p]), acc);
        if (accumulate) acc += load_n(y + i, rows);
        store_n(y + i, acc, rows);
    }
}

}  // namespace typeformer::kernels::simd_impl

namespace typeformer::kernels::simd {

template <class T>
void gemm_nn(std::size_t m, std::size_t n, std::size_t k, const T* A, std::size_t lda, const T* B,
             std::size_t ldb, T* C, std::size_t ldc, bool accumulate) noexcept {
    if constexpr (!simd_impl::has_batch<T>)
        scalar::gemm_nn(m, n, k, A, lda, B, ldb, C, ldc, accumulate);
    else if (n == 1)  // one column: A streams once, nothing to reuse a packed panel for
        simd_impl::gemv_n_impl(m, k, A, lda, B, C, accumulate);
    else
        simd_impl::gemm_driver(m, n, k, A, 1, lda, B, 1, ldb, C, ldc, accumulate);
}

template <class T>
void gemm_nt(std::size_t m, std::size_t n, std::size_t k, const T* A, std::size_t lda, const T* B,
             std::size_t ldb, T* C, std::size_t ldc, bool accumulate) noexcept {
    if constexpr (!simd_impl::has_batch<T>)
        scalar::gemm_nt(m, n, k, A, lda, B, ldb, C, ldc, accumulate);
    else
        simd_impl::gemm_driver(m, n, k, A, 1, lda, B, ldb, 1, C, ldc, accumulate);
}

template <class T>
void gemm_tn(std::size_t m, std::size_t n, std::size_t k, const T* A, std::size_t lda, const T* B,
             std::size_t ldb, T* C, std::size_t ldc, bool accumulate) noexcept {
    if constexpr (!simd_impl::has_batch<T>)
        scalar::gemm_tn(m, n, k, A, lda, B, ldb, C, ldc, accumulate);
    else if (n < 4)  // too few columns to pay for transposing A's panel
        simd_impl::gemm_tn_dot(m, n, k, A, lda, B, ldb, C, ldc, accumulate);
    else
        simd_impl::gemm_driver(m, n, k, A, lda, 1, B, 1, ldb, C, ldc, accumulate);
}

template <class T>
void gemv_n(std::size_t m, std::size_t k, const T* A, std::size_t lda, const T* x, T* y,
            bool accumulate) noexcept {
    if constexpr (!simd_impl::has_batch<T>)
        scalar::gemv_n(m, k, A, lda, x, y, accumulate);
    else
        simd_impl::gemv_n_impl(m, k, A, lda, x, y, accumulate);
}

template <class T>
void gemv_t(std::size_t m, std::size_t k, const T* A, std::size_t lda, const T* x, T* y,
            bool accumulate) noexcept {
    gemm_tn(m, 1, k, A, lda, x, k, y, m, accumulate);
}

}  // namespace typeformer::kernels::simd
