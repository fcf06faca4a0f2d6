// Cortex-M4 / M7 int8 products on the DSP extension; the signatures and the results of
// kernels/scalar/q8.hpp (gemm_q8a8 to the bit: its sums are exact int32s and every entry is
// finished by the same float operations), with the weights' shape (M, K) template parameters.
//
//   gemm_q8a8<M, K>  C (M, n) ←/+= diag(s)·Q · B, B's columns quantized to int8 on the fly
//   gemm_q8a8_gelu<M, K>  C (M, n) ← diag(s)·Q · GELU(H), GELU on H's int8 codes by a table
//   gemm_q8        C (m, n) ←/+= diag(s)·Q · B with float B: the scalar layer's
//
// SMLAD multiplies two pairs of 16-bit halves and adds both products to a 32-bit sum in one
// instruction; SXTB16 widens bytes 0 and 2 of a word to such a pair (with ROR #8: bytes 1 and 3).
// So a column of B is quantized (kernels/scalar/q8.hpp's rule) into 16-bit codes stored as
// (x0, x2), (x1, x3) per 4 entries, the order SXTB16 leaves the weights in, and 4 rows of Q run
// together: per 8 entries of k, two LDRD of the codes, then for each row one LDRD of its 8 weights,
// 4 SXTB16 and 4 SMLAD — 41 instructions per 32 multiply-adds (79 per 64 when K is a multiple of
// 16: two such steps a pass of the loop). GCC 12 does not fold the ROR into SXTB16 and spills at 4
// rows, so the loop is inline assembly; the rows are K bytes apart, which the loads take as
// immediates (K ≤ 336, a multiple of 8; other K run the C loop below it). A product's sums are
// taken 32 rows at a time and then finished in float, outside the loop that holds 14 registers.
#pragma once

// Assembly for the Armv7E-M / Armv8-M Mainline FPU and DSP extension: elsewhere (a host, or a
// tool that reads every header) this header declares nothing; kernels/backend.hpp includes it
// only for such a core (TYPEFORMER_CORTEXM).
#if defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M' && defined(__ARM_FP) && \
    defined(__ARM_FEATURE_DSP)
#include <arm_acle.h>

#include <bit>
#include <cstddef>
#include <cstdint>

#include "../scalar/q8.hpp"
#include "softmax.hpp"

namespace typeformer::kernels::cortexm {

namespace detail {

// round_half_even by the FPU (VCVTR rounds to nearest, ties to even, in its default mode).
inline std::int32_t round_half_even(float v) noexcept {
    float r;
    asm("vcvtr.s32.f32 %0, %1" : "=t"(r) : "t"(v));
    return std::bit_cast<std::int32_t>(r);
}

// max(0, |x_p|) over k floats, NaN skipped (the scalar layer's v > a ? v : a): 4 a pass, one VLDM.
inline float amax(std::size_t k, const float* x) noexcept {
    float a = 0;
    if (std::size_t n = k / 4) {
        asm volatile(
            "0:\n\t"
            "vldmia %[x]!, {s0-s3}\n\t"
            "vabs.f32 s0, s0\n\t"
            "vabs.f32 s1, s1\n\t"
            "vabs.f32 s2, s2\n\t"
            "vabs.f32 s3, s3\n\t"
            "vcmp.f32 s0, %[a]\n\t"
            "vmrs APSR_nzcv, fpscr\n\t"
            "it gt\n\t"
            "vmovgt.f32 %[a], s0\n\t"
            "vcmp.f32 s1, %[a]\n\t"
            "vmrs APSR_nzcv, fpscr\n\t"
            "it gt\n\t"
            "vmovgt.f32 %[a], s1\n\t"
            "vcmp.f32 s2, %[a]\n\t"
            "vmrs APSR_nzcv, fpscr\n\t"
            "it gt\n\t"
            "vmovgt.f32 %[a], s2\n\t"
            "vcmp.f32 s3, %[a]\n\t"
            "vmrs APSR_nzcv, fpscr\n\t"
            "it gt\n\t"
            "vmovgt.f32 %[a], s3\n\t"
            "subs %[n], %[n], #1\n\t"
            "bne 0b\n"
            : [n] "+r"(n), [x] "+r"(x), [a] "+t"(a)
            :
            : "s0", "s1", "s2", "s3", "cc", "memory");
    }
    for (std::size_t p = 0; p < k % 4; ++p) {
        const float v = __builtin_fabsf(x[p]);
        a = v > a ? v : a;
    }
    return a;
}

// x (k floats, k a multiple of 4) → 16-bit codes, (x0, x2) and (x1, x3) per 4 entries: per 4, one
// VLDM, 4 VMUL, 4 VCVTR (round_half_even), two VMOV of a pair, two PKHBT and one STRD.
inline void quantize_pairs(std::size_t k, const float* x, float amax, std::uint32_t* out) noexcept {
    const float inv = amax > 0 ? 127.0f / amax : 0.0f;
    if (k == 0)
        return;
    std::size_t n = k / 4;
    std::uint32_t q0, q1, q2, q3;
    asm volatile(
        "0:\n\t"
        "vldmia %[x]!, {s0-s3}\n\t"
        "vmul.f32 s0, s0, %[inv]\n\t"
        "vmul.f32 s1, s1, %[inv]\n\t"
        "vmul.f32 s2, s2, %[inv]\n\t"
        "vmul.f32 s3, s3, %[inv]\n\t"
        "vcvtr.s32.f32 s0, s0\n\t"
        "vcvtr.s32.f32 s1, s1\n\t"
        "vcvtr.s32.f32 s2, s2\n\t"
        "vcvtr.s32.f32 s3, s3\n\t"
        "vmov %[q0], %[q1], s0, s1\n\t"
        "vmov %[q2], %[q3], s2, s3\n\t"
        "pkhbt %[q0], %[q0], %[q2], lsl #16\n\t"
        "pkhbt %[q1], %[q1], %[q3], lsl #16\n\t"
        "strd %[q0], %[q1], [%[out]], #8\n\t"
        "subs %[n], %[n], #1\n\t"
        "bne 0b\n"
        : [n] "+r"(n), [x] "+r"(x), [out] "+r"(out), [q0] "=&r"(q0), [q1] "=&r"(q1), [q2] "=&r"(q2),
          [q3] "=&r"(q3)
        : [inv] "t"(inv)
        : "s0", "s1", "s2", "s3", "cc", "memory");
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

// The last 4 entries of a row whose length is 4 more than a multiple of 8.
#define TYPEFORMER_Q8_TAIL(acc, off)   \
    "ldr %[v0], [%[w], #" off          \
    "]\n\t"                            \
    "sxtb16 %[t], %[v0]\n\t"           \
    "smlad " acc ", %[t], %[xa], " acc \
    "\n\t"                             \
    "sxtb16 %[v0], %[v0], ror #8\n\t"  \
    "smlad " acc ", %[v0], %[xb], " acc "\n\t"

// Rows of int8 Stride bytes apart: acc[r] = row r · x over 8·n8 entries (n8 ≥ 1), then 4 more
// when Tail4; x the codes of quantize_pairs. R is 4 or 1. Two (n8 even, no tail): 16 entries per
// pass of the loop, its ADDS, CMP and BNE once per 64 multiply-adds.
template <std::size_t Stride, int R, bool Tail4 = false, bool Two = false>
[[gnu::always_inline]] inline void dot_rows(const std::int8_t* w, const std::uint32_t* x,
                                            std::size_t n8, std::int32_t* acc) noexcept {
    static_assert(3 * Stride + (Two ? 16 : 8) <= 1020, "LDRD's offsets reach 1020 bytes");
    static_assert(!(Two && Tail4));
    const std::uint32_t* const end = x + 4 * n8;
    std::uint32_t xa, xb, xc, xd, v0, v1, t;
    // clang-format off
#define TYPEFORMER_Q8_LOOP(ROWS)                       \
        "1:\n\t"                                       \
        "ldrd %[xa], %[xb], [%[x]], #8\n\t"            \
        "ldrd %[xc], %[xd], [%[x]], #8\n\t"            \
        ROWS(TYPEFORMER_Q8_ROW)                        \
        "adds %[w], %[w], #8\n\t"                      \
        "cmp %[x], %[end]\n\t"                         \
        "bne 1b\n\t"
#define TYPEFORMER_Q8_LOOP2(ROWS)                      \
        "1:\n\t"                                       \
        "ldrd %[xa], %[xb], [%[x]], #8\n\t"            \
        "ldrd %[xc], %[xd], [%[x]], #8\n\t"            \
        ROWS(TYPEFORMER_Q8_ROW)                        \
        "ldrd %[xa], %[xb], [%[x]], #8\n\t"            \
        "ldrd %[xc], %[xd], [%[x]], #8\n\t"            \
        ROWS(TYPEFORMER_Q8_ROW8)                       \
        "adds %[w], %[w], #16\n\t"                     \
        "cmp %[x], %[end]\n\t"                         \
        "bne 1b\n\t"
#define TYPEFORMER_Q8_LAST4(ROWS)                      \
        "ldrd %[xa], %[xb], [%[x]]\n\t"                \
        ROWS(TYPEFORMER_Q8_TAIL)
#define TYPEFORMER_ROWS4(F) F("%[a0]", "0") F("%[a1]", "%c[k1]") F("%[a2]", "%c[k2]") F("%[a3]", "%c[k3]")
#define TYPEFORMER_Q8_ROW8(acc, off) TYPEFORMER_Q8_ROW(acc, off "+8")
#define TYPEFORMER_ROWS1(F) F("%[a0]", "0")
#define TYPEFORMER_TEMPS                                                                    \
        [w] "+r"(w), [x] "+r"(x), [xa] "=&r"(xa), [xb] "=&r"(xb), [xc] "=&r"(xc),          \
        [xd] "=&r"(xd), [v0] "=&r"(v0), [v1] "=&r"(v1), [t] "=&r"(t)
    // clang-format on
    if constexpr (R == 4) {
        std::int32_t a0, a1, a2, a3;
#define TYPEFORMER_OPERANDS                                                            \
    : [a0] "=&r"(a0), [a1] "=&r"(a1), [a2] "=&r"(a2), [a3] "=&r"(a3), TYPEFORMER_TEMPS      \
    : [end] "r"(end), [k1] "i"(Stride), [k2] "i"(2 * Stride), [k3] "i"(3 * Stride)          \
    : "cc", "memory"
#define TYPEFORMER_ZERO4 "movs %[a0], #0\n\tmovs %[a1], #0\n\tmovs %[a2], #0\n\tmovs %[a3], #0\n"
        if constexpr (Tail4)
            asm volatile(TYPEFORMER_ZERO4 TYPEFORMER_Q8_LOOP(TYPEFORMER_ROWS4)
                             TYPEFORMER_Q8_LAST4(TYPEFORMER_ROWS4) TYPEFORMER_OPERANDS);
        else if constexpr (Two)
            asm volatile(TYPEFORMER_ZERO4 TYPEFORMER_Q8_LOOP2(TYPEFORMER_ROWS4)
                             TYPEFORMER_OPERANDS);
        else
            asm volatile(TYPEFORMER_ZERO4 TYPEFORMER_Q8_LOOP(TYPEFORMER_ROWS4) TYPEFORMER_OPERANDS);
#undef TYPEFORMER_ZERO4
#undef TYPEFORMER_OPERANDS
        acc[0] = a0, acc[1] = a1, acc[2] = a2, acc[3] = a3;
    } else {
        static_assert(R == 1);
        std::int32_t a0;
#define TYPEFORMER_OPERANDS \
    : [a0] "=&r"(a0), TYPEFORMER_TEMPS : [end] "r"(end) : "cc", "memory"
        if constexpr (Tail4)
            asm volatile("movs %[a0], #0\n" TYPEFORMER_Q8_LOOP(TYPEFORMER_ROWS1)
                             TYPEFORMER_Q8_LAST4(TYPEFORMER_ROWS1) TYPEFORMER_OPERANDS);
        else
            asm volatile("movs %[a0], #0\n" TYPEFORMER_Q8_LOOP(TYPEFORMER_ROWS1)
                             TYPEFORMER_OPERANDS);
#undef TYPEFORMER_OPERANDS
        acc[0] = a0;
    }
#undef TYPEFORMER_TEMPS
#undef TYPEFORMER_ROWS1
#undef TYPEFORMER_ROWS4
#undef TYPEFORMER_Q8_ROW8
#undef TYPEFORMER_Q8_LAST4
#undef TYPEFORMER_Q8_LOOP2
#undef TYPEFORMER_Q8_LOOP
}

// c[0:4n] ← acc · (s[0:4n] · s_x) (+ old, + bias, + res: those not null), scalar::q8a8_entry's
// operations for 4 entries at a time in s0–s7, n ≥ 1 times; the pointers stay in registers.
[[gnu::always_inline]] inline void finish_rows(std::size_t n, const std::int32_t* acc,
                                               const float* s, float s_x, float* c,
                                               const float* old, const float* bias,
                                               const float* res) noexcept {
    asm volatile(
        "0:\n\t"
        "vldmia %[acc]!, {s0-s3}\n\t"
        "vcvt.f32.s32 s0, s0\n\t"
        "vcvt.f32.s32 s1, s1\n\t"
        "vcvt.f32.s32 s2, s2\n\t"
        "vcvt.f32.s32 s3, s3\n\t"
        "vldmia %[s]!, {s4-s7}\n\t"
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
        "vldmia %[old]!, {s4-s7}\n\t"
        "vadd.f32 s0, s4, s0\n\t"
        "vadd.f32 s1, s5, s1\n\t"
        "vadd.f32 s2, s6, s2\n\t"
        "vadd.f32 s3, s7, s3\n"
        "1:\n\t"
        "cmp %[bias], #0\n\t"
        "beq 2f\n\t"
        "vldmia %[bias]!, {s4-s7}\n\t"
        "vadd.f32 s0, s0, s4\n\t"
        "vadd.f32 s1, s1, s5\n\t"
        "vadd.f32 s2, s2, s6\n\t"
        "vadd.f32 s3, s3, s7\n"
        "2:\n\t"
        "cmp %[res], #0\n\t"
        "beq 3f\n\t"
        "vldmia %[res]!, {s4-s7}\n\t"
        "vadd.f32 s0, s0, s4\n\t"
        "vadd.f32 s1, s1, s5\n\t"
        "vadd.f32 s2, s2, s6\n\t"
        "vadd.f32 s3, s3, s7\n"
        "3:\n\t"
        "vstmia %[c]!, {s0-s3}\n\t"
        "subs %[n], %[n], #1\n\t"
        "bne 0b\n"
        : [n] "+r"(n), [acc] "+r"(acc), [s] "+r"(s), [c] "+r"(c), [old] "+r"(old),
          [bias] "+r"(bias), [res] "+r"(res)
        : [sx] "t"(s_x)
        : "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "cc", "memory");
}

#undef TYPEFORMER_Q8_TAIL
#undef TYPEFORMER_Q8_ROW

// h (k floats, k a multiple of 4) → GELU's codes on the scale 2^e (scalar::gelu_q8_codes), packed
// as quantize_pairs packs: VCVTR saturates and gives 0 for NaN, SSAT clamps to int8, and the
// table is indexed by the signed code from its middle.
template <class T>
void gelu_pairs(std::size_t k, const T* h, int e, std::uint32_t* out) noexcept {
    const float inv = scalar::pow2_q8(-e);
    const std::int8_t* table = scalar::gelu_q8_tables<T>.t[e - scalar::gelu_q8_e_min] + 128;
    auto code = [&](float v) -> std::uint32_t {
        return static_cast<std::uint32_t>(table[__ssat(round_half_even(v * inv), 8)]);
    };
    for (std::size_t p = 0; p < k; p += 4, out += 2) {
        const std::uint32_t c0 = code(h[p]), c1 = code(h[p + 1]), c2 = code(h[p + 2]),
                            c3 = code(h[p + 3]);
        out[0] = (c0 & 0xFFFFu) | c2 << 16;
        out[1] = (c1 & 0xFFFFu) | c3 << 16;
    }
}

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
    if constexpr (K >= 8 && 3 * K + 8 <= 1020) {
        // The sums of up to 32 rows, then their finish: the DSP loop takes 14 core registers, so
        // the finish's pointers would be spilled around every block of 4 rows.
        constexpr std::size_t M4 = M / 4 * 4, chunk = M4 < 32 ? M4 : 32;
        constexpr bool two = K % 16 == 0 && 3 * K + 16 <= 1020;
        alignas(8) std::int32_t acc[chunk > 0 ? chunk : 1];
        for (std::size_t i0 = 0; i0 < M4; i0 += chunk) {
            const std::size_t m = M4 - i0 < chunk ? M4 - i0 : chunk;
            for (std::size_t i = 0; i < m; i += 4)
                dot_rows<K, 4, K % 8 != 0, two>(Q + (i0 + i) * K, codes, K / 8, acc + i);
            finish_rows(m / 4, acc, s + i0, s_x, c + i0, old ? old + i0 : nullptr,
                        bias ? bias + i0 : nullptr, res ? res + i0 : nullptr);
        }
        if constexpr (M4 < M)
            for (std::size_t i = M4; i < M; ++i) {
                dot_rows<K, 1, K % 8 != 0>(Q + i * K, codes, K / 8, acc);
                finish(i, acc[0]);
            }
    } else {
        for (std::size_t i = 0; i < M; ++i)
            finish(i, dot_row(K, Q + i * K, codes));
    }
}

}  // namespace detail

namespace detail {
// C's n columns from the codes codes_of(j, amax, codes) leaves (returning their scale), the
// largest |x| of column j amax_of(j), or of all columns (per_tensor).
template <std::size_t M, std::size_t K, class Amax, class Codes>
void q8a8_columns(std::size_t n, const std::int8_t* Q, const float* s, float* C, std::size_t ldc,
                  bool accumulate, bool per_tensor, const gemm_epilogue<float>& ep, Amax amax_of,
                  Codes codes_of) noexcept {
    alignas(8) std::uint32_t codes[K / 2];
    scalar::detail::for_each_amax(n, per_tensor, amax_of, [&](std::size_t j, float amax) {
        const float s_x = codes_of(j, amax, codes);
        float* c = C + j * ldc;
        const float* old = accumulate ? c : nullptr;
        const float* bias = ep.has_bias() ? ep.bias_at(0) : nullptr;
        const float* res = ep.has_residual() ? ep.residual_at(0, j) : nullptr;
        q8a8_column<M, K>(Q, s, codes, s_x, c, old, bias, res);
    });
}
}  // namespace detail

// C ←/+= diag(s)·Q · B (Q M rows of K int8, K apart; B (K, n) float), B's columns quantized on
// the fly: one scale per column, or with per_tensor one for all of B. K not a multiple of 4 runs
// the scalar layer's loop (with `scratch`, K int8).
template <std::size_t M, std::size_t K>
void gemm_q8a8(std::size_t n, const std::int8_t* Q, const float* s, const float* B, std::size_t ldb,
               float* C, std::size_t ldc, bool accumulate, bool per_tensor, std::int8_t* scratch,
               const gemm_epilogue<float>& ep = {}) noexcept {
    if constexpr (K % 4 != 0)
        scalar::gemm_q8a8(M, n, K, Q, K, s, B, ldb, C, ldc, accumulate, per_tensor, scratch, ep);
    else
        detail::q8a8_columns<M, K>(
            n, Q, s, C, ldc, accumulate, per_tensor, ep,
            [&](std::size_t j) { return detail::amax(K, B + j * ldb); },
            [&](std::size_t j, float amax, std::uint32_t* codes) {
                detail::quantize_pairs(K, B + j * ldb, amax, codes);
                return scalar::activation_scale_q8(amax);
            });
}

// C ← diag(s)·Q · GELU(H) (+ the epilogue), GELU on H's int8 codes (scalar::gemm_q8a8_gelu's
// tables and results, to the bit).
template <std::size_t M, std::size_t K>
void gemm_q8a8_gelu(std::size_t n, const std::int8_t* Q, const float* s, const float* H,
                    std::size_t ldh, float* C, std::size_t ldc, bool per_tensor,
                    std::int8_t* scratch, const gemm_epilogue<float>& ep = {}) noexcept {
    if constexpr (K % 4 != 0)
        scalar::gemm_q8a8_gelu(M, n, K, Q, K, s, H, ldh, C, ldc, per_tensor, scratch, ep);
    else
        detail::q8a8_columns<M, K>(
            n, Q, s, C, ldc, false, per_tensor, ep,
            [&](std::size_t j) { return detail::amax(K, H + j * ldh); },
            [&](std::size_t j, float amax, std::uint32_t* codes) {
                const int e = scalar::gelu_q8_exponent(amax);
                detail::gelu_pairs(K, H + j * ldh, e, codes);
                return scalar::pow2_q8(e);
            });
}

// attend_q8 (kernels/scalar/q8.hpp) on the DSP extension: the codes of quantize_pairs (over a
// multiple of 8 entries, zeros past n), 4 positions of Kᵀq and 4 rows of V·β at a time.
template <std::size_t Dattn, std::size_t LdK, std::size_t Dmid, std::size_t LdV>
struct q8_attention_ops {
    using code = std::uint32_t;  // two 16-bit codes
    static constexpr std::size_t d_attn = Dattn, d_mid = Dmid;
    static_assert(Dattn % 4 == 0, "d_attn a multiple of 4");

    static float quantize(std::size_t n, const float* x, code* codes) noexcept {
        const float a = detail::amax(n, x);
        const std::size_t n4 = n / 4 * 4;
        detail::quantize_pairs(n4, x, a, codes);
        float last[8] = {};  // the entries past n4, then zeros to a multiple of 8
        for (std::size_t p = n4; p < n; ++p)
            last[p - n4] = x[p];
        const std::size_t padded = (n + 7) / 8 * 8;
        if (padded > n4)
            detail::quantize_pairs(padded - n4, last, a, codes + n4 / 2);
        return scalar::activation_scale_q8(a);
    }
    static void scores(std::size_t n, const std::int8_t* K, const code* q,
                       std::int32_t* sums) noexcept {
        if constexpr (Dattn >= 8 && 3 * LdK + 8 <= 1020) {
            std::size_t u = 0;
            for (; u + 4 <= n; u += 4)
                detail::dot_rows<LdK, 4, Dattn % 8 != 0>(K + u * LdK, q, Dattn / 8, sums + u);
            for (; u < n; ++u)
                detail::dot_rows<LdK, 1, Dattn % 8 != 0>(K + u * LdK, q, Dattn / 8, sums + u);
        } else {
            for (std::size_t u = 0; u < n; ++u)
                sums[u] = detail::dot_row(Dattn, K + u * LdK, q);
        }
    }
    static void mix(std::size_t n, const std::int8_t* Vt, const code* b,
                    std::int32_t* sums) noexcept {
        const std::size_t n8 = (n + 7) / 8;  // the codes are zeros past n
        if constexpr (3 * LdV + 8 <= 1020) {
            constexpr std::size_t D4 = Dmid / 4 * 4;
            for (std::size_t i = 0; i < D4; i += 4)
                detail::dot_rows<LdV, 4>(Vt + i * LdV, b, n8, sums + i);
            for (std::size_t i = D4; i < Dmid; ++i)
                detail::dot_rows<LdV, 1>(Vt + i * LdV, b, n8, sums + i);
        } else {
            for (std::size_t i = 0; i < Dmid; ++i)
                sums[i] = detail::dot_row(8 * n8, Vt + i * LdV, b);
        }
    }
    static void softmax(std::size_t n, float scale, float* s) noexcept {
        softmax_columns(n, std::size_t{1}, scale, false, std::ptrdiff_t{0}, s, n);
    }
};

using scalar::gemm_q8;

}  // namespace typeformer::kernels::cortexm

#endif
