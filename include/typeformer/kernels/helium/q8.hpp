// Helium (MVE) int8 products; the signatures and the results of kernels/scalar/q8.hpp
// (gemm_q8a8 to the bit: its sums are exact int32s and every entry is finished by the same float
// operations), with the weights' shape (M, K) template parameters.
//
//   gemm_q8a8<M, K>      C (M, n) ←/+= diag(s)·Q · B, B's columns quantized to int8 on the fly
//   gemm_q8a8_gelu<M, K> C (M, n) ← diag(s)·Q · GELU(H), GELU on H's int8 codes by a table
//   q8_attention_ops     the int8 KV cache's attention sums (kernels::scalar::attend_q8)
//
// VMLADAVA multiplies 16 int8 pairs and adds the 16 products to a 32-bit sum in one instruction.
// A column of B is quantized 4 floats a vector (VMUL by 127/max |x|, VCVTN: to nearest, ties to
// even, the scalar rule; stored as bytes), then 4 rows of Q run together: per 16 entries of k one
// VLDRB of the codes and, per row, a VLDRB of its 16 weights and a VMLADAVA — 9 instructions per
// 64 multiply-adds; the entries past a multiple of 16 run under a tail predicate (VCTP). The 4
// sums are finished as one vector, with scalar::q8a8_entry's operations.
#pragma once

#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 2)
#include <arm_mve.h>

#include <cstddef>
#include <cstdint>

#include "../cortexm/softmax.hpp"
#include "../scalar/q8.hpp"

namespace typeformer::kernels::helium {

namespace detail {

inline float amax(std::size_t n, const float* x) noexcept {
    float a = 0.0f;
    for (std::size_t p = 0; p < n; p += 4) {
        const mve_pred16_t m = vctp32q(n - p);
        a = vmaxnmavq_p_f32(a, vldrwq_z_f32(x + p, m), m);  // max |x| across the lanes
    }
    return a;
}

// codes[p] = round_half_even(x[p] · 127 / amax) for n entries, then zeros to a multiple of 16.
inline void quantize_codes(std::size_t n, const float* x, float amax, std::int8_t* codes) noexcept {
    const float inv = amax > 0 ? 127.0f / amax : 0.0f;
    const std::size_t padded = (n + 15) / 16 * 16;
    for (std::size_t p = 0; p < padded; p += 4) {
        const mve_pred16_t m = vctp32q(p < n ? n - p : 0);
        const int32x4_t q = vcvtnq_s32_f32(vmulq_n_f32(vldrwq_z_f32(x + p, m), inv));
        vstrbq_s32(codes + p, vpselq_s32(q, vdupq_n_s32(0), m));
    }
}

// acc[r] = row r · codes over n entries for the R (4 or 1) rows at w, `stride` bytes apart: whole
// vectors of 16, then the rest under a tail predicate.
template <int R>
[[gnu::always_inline]] inline void dot_rows(std::size_t n, const std::int8_t* w, std::size_t stride,
                                            const std::int8_t* codes,
                                            std::int32_t (&acc)[R]) noexcept {
    std::int32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    const std::size_t n16 = n / 16 * 16;
    for (std::size_t p = 0; p < n16; p += 16) {
        const int8x16_t x = vld1q_s8(codes + p);
        a0 = vmladavaq_s8(a0, vld1q_s8(w + p), x);
        if constexpr (R == 4) {
            a1 = vmladavaq_s8(a1, vld1q_s8(w + stride + p), x);
            a2 = vmladavaq_s8(a2, vld1q_s8(w + 2 * stride + p), x);
            a3 = vmladavaq_s8(a3, vld1q_s8(w + 3 * stride + p), x);
        }
    }
    if (n16 < n) {
        const mve_pred16_t m = vctp8q(n - n16);
        const int8x16_t x = vldrbq_z_s8(codes + n16, m);
        a0 = vmladavaq_p_s8(a0, vldrbq_z_s8(w + n16, m), x, m);
        if constexpr (R == 4) {
            a1 = vmladavaq_p_s8(a1, vldrbq_z_s8(w + stride + n16, m), x, m);
            a2 = vmladavaq_p_s8(a2, vldrbq_z_s8(w + 2 * stride + n16, m), x, m);
            a3 = vmladavaq_p_s8(a3, vldrbq_z_s8(w + 3 * stride + n16, m), x, m);
        }
    }
    acc[0] = a0;
    if constexpr (R == 4)
        acc[1] = a1, acc[2] = a2, acc[3] = a3;
}

// c[0:4] ← acc · (s[0:4] · s_x) (+ old, + bias, + res: those not null), scalar::q8a8_entry's
// operations on a vector of 4 (the same IEEE operations, so the same bits).
[[gnu::always_inline]] inline void finish4(const std::int32_t (&acc)[4], const float* s, float s_x,
                                           float* c, const float* old, const float* bias,
                                           const float* res) noexcept {
    const int32x4_t a = {acc[0], acc[1], acc[2], acc[3]};
    float32x4_t v = vmulq_f32(vcvtq_f32_s32(a), vmulq_n_f32(vld1q_f32(s), s_x));
    if (old)
        v = vaddq_f32(vld1q_f32(old), v);
    if (bias)
        v = vaddq_f32(v, vld1q_f32(bias));
    if (res)
        v = vaddq_f32(v, vld1q_f32(res));
    vst1q_f32(c, v);
}

// GELU's codes of h (scalar::gelu_q8_codes) 4 a vector: VMUL by 2^-e, VCVTN (saturating, NaN to
// 0), clamped to int8, a byte gather from the table; zeros past n to a multiple of 16.
template <class T>
void gelu_codes(std::size_t n, const T* h, int e, std::int8_t* codes) noexcept {
    const float inv = scalar::pow2_q8(-e);
    const std::int8_t* table = scalar::gelu_q8_tables<T>.t[e - scalar::gelu_q8_e_min];
    const std::size_t padded = (n + 15) / 16 * 16;
    for (std::size_t p = 0; p < padded; p += 4) {
        const mve_pred16_t m = vctp32q(p < n ? n - p : 0);
        int32x4_t q = vcvtnq_s32_f32(vmulq_n_f32(vldrwq_z_f32(h + p, m), inv));
        q = vmaxq_s32(vminq_s32(q, vdupq_n_s32(127)), vdupq_n_s32(-128));
        const auto offsets = vreinterpretq_u32_s32(vaddq_n_s32(q, 128));
        const int32x4_t g = vldrbq_gather_offset_s32(table, offsets);
        vstrbq_s32(codes + p, vpselq_s32(g, vdupq_n_s32(0), m));
    }
}

// C's n columns from the codes codes_of(j, amax, codes) leaves (returning their scale), the
// largest |x| of column j amax_of(j), or of all columns (per_tensor).
template <std::size_t M, std::size_t K, class Amax, class Codes>
void q8a8_columns(std::size_t n, const std::int8_t* Q, const float* s, float* C, std::size_t ldc,
                  bool accumulate, bool per_tensor, const gemm_epilogue<float>& ep, Amax amax_of,
                  Codes codes_of) noexcept {
    alignas(16) std::int8_t codes[(K + 15) / 16 * 16];
    scalar::detail::for_each_amax(n, per_tensor, amax_of, [&](std::size_t j, float amax) {
        const float s_x = codes_of(j, amax, codes);
        float* c = C + j * ldc;
        auto finish = [&](std::size_t i, std::int32_t acc) {
            c[i] = scalar::q8a8_entry(acc, s[i], s_x, accumulate ? c + i : nullptr,
                                      ep.has_bias() ? ep.bias_at(i) : nullptr,
                                      ep.has_residual() ? ep.residual_at(i, j) : nullptr);
        };
        constexpr std::size_t M4 = M / 4 * 4;
        const float* old = accumulate ? c : nullptr;
        const float* bias = ep.has_bias() ? ep.bias_at(0) : nullptr;
        const float* res = ep.has_residual() ? ep.residual_at(0, j) : nullptr;
        for (std::size_t i = 0; i < M4; i += 4) {
            std::int32_t acc[4];
            dot_rows<4>(K, Q + i * K, K, codes, acc);
            finish4(acc, s + i, s_x, c + i, old ? old + i : nullptr, bias ? bias + i : nullptr,
                    res ? res + i : nullptr);
        }
        if constexpr (M4 < M)
            for (std::size_t i = M4; i < M; ++i) {
                std::int32_t acc[1];
                dot_rows<1>(K, Q + i * K, K, codes, acc);
                finish(i, acc[0]);
            }
    });
}

}  // namespace detail

// C ←/+= diag(s)·Q · B (Q M rows of K int8, K apart; B (K, n) float), B's columns quantized on
// the fly: one scale per column, or with per_tensor one for all of B.
template <std::size_t M, std::size_t K>
void gemm_q8a8(std::size_t n, const std::int8_t* Q, const float* s, const float* B, std::size_t ldb,
               float* C, std::size_t ldc, bool accumulate, bool per_tensor, std::int8_t*,
               const gemm_epilogue<float>& ep = {}) noexcept {
    detail::q8a8_columns<M, K>(
        n, Q, s, C, ldc, accumulate, per_tensor, ep,
        [&](std::size_t j) { return detail::amax(K, B + j * ldb); },
        [&](std::size_t j, float amax, std::int8_t* codes) {
            detail::quantize_codes(K, B + j * ldb, amax, codes);
            return scalar::activation_scale_q8(amax);
        });
}

// C ← diag(s)·Q · GELU(H) (+ the epilogue), GELU on H's int8 codes (scalar::gemm_q8a8_gelu's
// tables and results, to the bit).
template <std::size_t M, std::size_t K>
void gemm_q8a8_gelu(std::size_t n, const std::int8_t* Q, const float* s, const float* H,
                    std::size_t ldh, float* C, std::size_t ldc, bool per_tensor, std::int8_t*,
                    const gemm_epilogue<float>& ep = {}) noexcept {
    detail::q8a8_columns<M, K>(
        n, Q, s, C, ldc, false, per_tensor, ep,
        [&](std::size_t j) { return detail::amax(K, H + j * ldh); },
        [&](std::size_t j, float amax, std::int8_t* codes) {
            const int e = scalar::gelu_q8_exponent(amax);
            detail::gelu_codes(K, H + j * ldh, e, codes);
            return scalar::pow2_q8(e);
        });
}

// attend_q8 (kernels/scalar/q8.hpp) on MVE: int8 codes (zeros to a multiple of 16), the sums 4
// rows a time.
template <std::size_t Dattn, std::size_t LdK, std::size_t Dmid, std::size_t LdV>
struct q8_attention_ops {
    using code = std::int8_t;
    static constexpr std::size_t d_attn = Dattn, d_mid = Dmid;

    static float quantize(std::size_t n, const float* x, code* codes) noexcept {
        const float a = detail::amax(n, x);
        detail::quantize_codes(n, x, a, codes);
        return scalar::activation_scale_q8(a);
    }
    static void scores(std::size_t n, const std::int8_t* K, const code* q,
                       std::int32_t* sums) noexcept {
        rows(n, Dattn, K, LdK, q, sums);
    }
    static void mix(std::size_t n, const std::int8_t* Vt, const code* b,
                    std::int32_t* sums) noexcept {
        rows(Dmid, n, Vt, LdV, b, sums);
    }
    static void softmax(std::size_t n, float scale, float* s) noexcept {
        cortexm::softmax_columns(n, std::size_t{1}, scale, false, std::ptrdiff_t{0}, s, n);
    }

private:
    // Out of line: inlined into a step with its fixed-size buffers, GCC warns of a loop it then
    // believes could run past them (-Waggressive-loop-optimizations).
    [[gnu::noinline]] static void rows(std::size_t count, std::size_t len, const std::int8_t* W,
                                       std::size_t ld, const code* x, std::int32_t* sums) noexcept {
        std::size_t r = 0;
        for (; r + 4 <= count; r += 4) {
            std::int32_t acc[4];
            detail::dot_rows<4>(len, W + r * ld, ld, x, acc);
            sums[r] = acc[0], sums[r + 1] = acc[1], sums[r + 2] = acc[2], sums[r + 3] = acc[3];
        }
        for (; r < count; ++r) {
            std::int32_t acc[1];
            detail::dot_rows<1>(len, W + r * ld, ld, x, acc);
            sums[r] = acc[0];
        }
    }
};

using scalar::gemm_q8;

}  // namespace typeformer::kernels::helium

#endif
