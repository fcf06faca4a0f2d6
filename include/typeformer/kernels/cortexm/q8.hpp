// Cortex-M4 / M7 int8 products on the DSP extension; the signatures and the results of
// kernels/scalar/q8.hpp (gemm_q8a8 to the bit: its sums are exact int32s and every entry is
// finished by the same float operations), with the weights' shape (M, K) template parameters.
//
//   gemm_q8a8<M, K>  C (M, n) ←/+= diag(s)·Q · B, B's columns quantized to int8 on the fly
//   gemm_q8        C (m, n) ←/+= diag(s)·Q · B with float B: the scalar layer's
//
// SMLAD multiplies two pairs of 16-bit halves and adds both products to a 32-bit sum in one
// instruction; SXTB16 widens bytes 0 and 2 of a word to such a pair (with ROR #8: bytes 1 and 3).
// So a column of B is quantized (kernels/scalar/q8.hpp's rule) into 16-bit codes stored as
// (x0, x2), (x1, x3) per 4 entries, the order SXTB16 leaves the weights in, and 4 rows of Q run
// together: per 8 entries of k, two LDRD of the codes, then for each row one LDRD of its 8 weights,
// 4 SXTB16 and 4 SMLAD — 41 instructions per 32 multiply-adds. GCC 12 does not fold the ROR into
// SXTB16 and spills at 4 rows, so the loop is inline assembly; the rows are K bytes apart, which
// the loads take as immediates (K ≤ 336, a multiple of 8; other K run the C loop below it).
#pragma once

#include <arm_acle.h>

#include <bit>
#include <cstddef>
#include <cstdint>

#include "../scalar/q8.hpp"

namespace typeformer::kernels::cortexm {

namespace detail {

// round_half_even by the FPU (VCVTR rounds to nearest, ties to even, in its default mode).
inline std::int32_t round_half_even(float v) noexcept {
    float r;
    asm("vcvtr.s32.f32 %0, %1" : "=t"(r) : "t"(v));
    return std::bit_cast<std::int32_t>(r);
}

inline float amax(std::size_t k, const float* x) noexcept {
    float a = 0;
    for (std::size_t p = 0; p < k; ++p) {
        const float v = __builtin_fabsf(x[p]);
        a = v > a ? v : a;
    }
    return a;
}

// x (k floats, k a multiple of 4) → 16-bit codes, (x0, x2) and (x1, x3) per 4 entries.
inline void quantize_pairs(std::size_t k, const float* x, float amax, std::uint32_t* out) noexcept {
    const float inv = amax > 0 ? 127.0f / amax : 0.0f;
    for (std::size_t p = 0; p < k; p += 4, out += 2) {
        const std::int32_t q0 = round_half_even(x[p] * inv), q1 = round_half_even(x[p + 1] * inv),
                           q2 = round_half_even(x[p + 2] * inv),
                           q3 = round_half_even(x[p + 3] * inv);
        out[0] = (static_cast<std::uint32_t>(q0) & 0xFFFFu) | static_cast<std::uint32_t>(q2) << 16;
        out[1] = (static_cast<std::uint32_t>(q1) & 0xFFFFu) | static_cast<std::uint32_t>(q3) << 16;
    }
}

// clang-format off
#define TYPEFORMER_Q8_ROW(acc, off)                  \
    "ldrd %[v0], %[v1], [%[w], #" off "]\n\t"        \
    "sxtb16 %[t], %[v0]\n\t"                         \
    "smlad " acc ", %[t], %[xa], " acc "\n\t"        \
    "sxtb16 %[v0], %[v0], ror #8\n\t"                \
    "smlad " acc ", %[v0], %[xb], " acc "\n\t"       \
    "sxtb16 %[t], %[v1]\n\t"                         \
    "smlad " acc ", %[t], %[xc], " acc "\n\t"        \
    "sxtb16 %[v1], %[v1], ror #8\n\t"                \
    "smlad " acc ", %[v1], %[xd], " acc "\n\t"
// clang-format on

// acc[r] = row r of Q · x for the R (4 or 1) rows at w, K bytes apart; x the codes of
// quantize_pairs.
template <std::size_t K, int R>
[[gnu::always_inline]] inline void dot_rows(const std::int8_t* w, const std::uint32_t* x,
                                            std::int32_t (&acc)[R]) noexcept {
    static_assert(K % 8 == 0 && K > 0 && 3 * K + 8 <= 1020);
    const std::uint32_t* const end = x + K / 2;
    std::uint32_t xa, xb, xc, xd, v0, v1, t;
    if constexpr (R == 4) {
        std::int32_t a0, a1, a2, a3;
        asm volatile("movs %[a0], #0\n\t"
                     "movs %[a1], #0\n\t"
                     "movs %[a2], #0\n\t"
                     "movs %[a3], #0\n"
                     "1:\n\t"
                     "ldrd %[xa], %[xb], [%[x]], #8\n\t"
                     "ldrd %[xc], %[xd], [%[x]], #8\n\t" TYPEFORMER_Q8_ROW("%[a0]", "0")
                         TYPEFORMER_Q8_ROW("%[a1]", "%c[k1]") TYPEFORMER_Q8_ROW("%[a2]", "%c[k2]")
                             TYPEFORMER_Q8_ROW("%[a3]", "%c[k3]") "adds %[w], %[w], #8\n\t"
                                                                  "cmp %[x], %[end]\n\t"
                                                                  "bne 1b\n"
                     : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3),
                       [w] "+r"(w), [x] "+r"(x), [xa] "=&r"(xa), [xb] "=&r"(xb), [xc] "=&r"(xc),
                       [xd] "=&r"(xd), [v0] "=&r"(v0), [v1] "=&r"(v1), [t] "=&r"(t)
                     : [end] "r"(end), [k1] "i"(K), [k2] "i"(2 * K), [k3] "i"(3 * K)
                     : "cc", "memory");
        acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
    } else {
        static_assert(R == 1);
        std::int32_t a0;
        asm volatile("movs %[a0], #0\n"
                     "1:\n\t"
                     "ldrd %[xa], %[xb], [%[x]], #8\n\t"
                     "ldrd %[xc], %[xd], [%[x]], #8\n\t" TYPEFORMER_Q8_ROW("%[a0]", "0")
                     "adds %[w], %[w], #8\n\t"
                     "cmp %[x], %[end]\n\t"
                     "bne 1b\n"
                     : [a0] "=&r"(a0), [w] "+r"(w), [x] "+r"(x), [xa] "=&r"(xa), [xb] "=&r"(xb),
                       [xc] "=&r"(xc), [xd] "=&r"(xd), [v0] "=&r"(v0), [v1] "=&r"(v1),
                       [t] "=&r"(t)
                     : [end] "r"(end)
                     : "cc", "memory");
        acc[0] = a0;
    }
}

// c[0:4] ← acc · (s[0:4] · s_x) (+ old, + bias, + res: those not null), scalar::q8a8_entry's
// operations for 4 entries at once in s0–s7.
[[gnu::always_inline]] inline void finish4(const std::int32_t (&acc)[4], const float* s, float s_x,
                                           float* c, const float* old, const float* bias,
                                           const float* res) noexcept {
    asm volatile(
        "vldmia %[acc], {s0-s3}\n\t"
        "vcvt.f32.s32 s0, s0\n\t"
        "vcvt.f32.s32 s1, s1\n\t"
        "vcvt.f32.s32 s2, s2\n\t"
        "vcvt.f32.s32 s3, s3\n\t"
        "vldmia %[s], {s4-s7}\n\t"
        "vmul.f32 s4, s4, %[sx]\n\t"
        "vmul.f32 s5, s5, %[sx]\n\t"
        "vmul.f32 s6, s6, %[sx]\n\t"
        "vmul.f32 s7, s7, %[sx]\n\t"
        "vmul.f32 s0, s0, s4\n\t"
        "vmul.f32 s1, s1, s5\n\t"
        "vmul.f32 s2, s2, s6\n\t"
        "vmul.f32 s3, s3, s7\n\t"
        "cmp %[old], #0\n\t"
        "beq 1f\n\t"
        "vldmia %[old], {s4-s7}\n\t"
        "vadd.f32 s0, s4, s0\n\t"
        "vadd.f32 s1, s5, s1\n\t"
        "vadd.f32 s2, s6, s2\n\t"
        "vadd.f32 s3, s7, s3\n"
        "1:\n\t"
        "cmp %[bias], #0\n\t"
        "beq 2f\n\t"
        "vldmia %[bias], {s4-s7}\n\t"
        "vadd.f32 s0, s0, s4\n\t"
        "vadd.f32 s1, s1, s5\n\t"
        "vadd.f32 s2, s2, s6\n\t"
        "vadd.f32 s3, s3, s7\n"
        "2:\n\t"
        "cmp %[res], #0\n\t"
        "beq 3f\n\t"
        "vldmia %[res], {s4-s7}\n\t"
        "vadd.f32 s0, s0, s4\n\t"
        "vadd.f32 s1, s1, s5\n\t"
        "vadd.f32 s2, s2, s6\n\t"
        "vadd.f32 s3, s3, s7\n"
        "3:\n\t"
        "vstmia %[c], {s0-s3}\n"
        :
        : [acc] "r"(acc), [s] "r"(s), [sx] "t"(s_x), [c] "r"(c), [old] "r"(old), [bias] "r"(bias),
          [res] "r"(res)
        : "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "cc", "memory");
}

#undef TYPEFORMER_Q8_ROW

// The same sum for any k (a multiple of 4), one row, in C.
inline std::int32_t dot_row(std::size_t k, const std::int8_t* w, const std::uint32_t* x) noexcept {
    std::int32_t a = 0;
    for (std::size_t p = 0; p < k; p += 4, x += 2) {
        std::uint32_t v;
        __builtin_memcpy(&v, w + p, 4);
        a = __smlad(__sxtb16(v), x[0], a);
        a = __smlad(__sxtb16((v >> 8) | (v << 24)), x[1], a);
    }
    return a;
}

}  // namespace detail

namespace detail {

// C[:, j] (M entries) from the codes of column j: 4 rows of sums at a time, each entry finished
// by scalar::q8a8_entry's operations (old: C's column when accumulating; old, bias, res may be
// null).
template <std::size_t M, std::size_t K>
void q8a8_column(const std::int8_t* Q, const float* s, const std::uint32_t* codes, float s_x,
                 float* c, const float* old, const float* bias, const float* res) noexcept {
    auto finish = [&](std::size_t i, std::int32_t acc) {
        c[i] = scalar::q8a8_entry(acc, s[i], s_x, old ? old + i : nullptr,
                                  bias ? bias + i : nullptr, res ? res + i : nullptr);
    };
    if constexpr (K % 8 == 0 && 3 * K + 8 <= 1020) {
        constexpr std::size_t M4 = M / 4 * 4;
        for (std::size_t i = 0; i < M4; i += 4) {
            std::int32_t acc[4];
            dot_rows<K, 4>(Q + i * K, codes, acc);
            finish4(acc, s + i, s_x, c + i, old ? old + i : nullptr, bias ? bias + i : nullptr,
                    res ? res + i : nullptr);
        }
        if constexpr (M4 < M)
            for (std::size_t i = M4; i < M; ++i) {
                std::int32_t acc[1];
                dot_rows<K, 1>(Q + i * K, codes, acc);
                finish(i, acc[0]);
            }
    } else {
        for (std::size_t i = 0; i < M; ++i)
            finish(i, dot_row(K, Q + i * K, codes));
    }
}

}  // namespace detail

// C ←/+= diag(s)·Q · B (Q M rows of K int8, K apart; B (K, n) float), B's columns quantized on
// the fly: one scale per column, or with per_tensor one for all of B. K not a multiple of 4 runs
// the scalar layer's loop (with `scratch`, K int8).
template <std::size_t M, std::size_t K>
void gemm_q8a8(std::size_t n, const std::int8_t* Q, const float* s, const float* B, std::size_t ldb,
               float* C, std::size_t ldc, bool accumulate, bool per_tensor, std::int8_t* scratch,
               const gemm_epilogue<float>& ep = {}) noexcept {
    if constexpr (K % 4 != 0) {
        scalar::gemm_q8a8(M, n, K, Q, K, s, B, ldb, C, ldc, accumulate, per_tensor, scratch, ep);
    } else {
        alignas(8) std::uint32_t codes[K / 2];
        float amax_all = 0;
        if (per_tensor)
            for (std::size_t j = 0; j < n; ++j) {
                const float a = detail::amax(K, B + j * ldb);
                amax_all = a > amax_all ? a : amax_all;
            }
        for (std::size_t j = 0; j < n; ++j) {
            const float amax = per_tensor ? amax_all : detail::amax(K, B + j * ldb);
            detail::quantize_pairs(K, B + j * ldb, amax, codes);
            const float s_x = scalar::activation_scale_q8(amax);
            float* c = C + j * ldc;
            const float* old = accumulate ? c : nullptr;
            const float* bias = ep.has_bias() ? ep.bias_at(0) : nullptr;
            const float* res = ep.has_residual() ? ep.residual_at(0, j) : nullptr;
            detail::q8a8_column<M, K>(Q, s, codes, s_x, c, old, bias, res);
        }
    }
}

using scalar::gemm_q8;

}  // namespace typeformer::kernels::cortexm
