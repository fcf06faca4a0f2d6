// Scalar int8 kernels: symmetric per-row quantization and the product of an int8 matrix with
// float activations (always available; the reference the SIMD path is tested against).
//
//   quantize_rows_q8  W (m, k) float, W_ij at W[i·rs + j·cs] (column-major: rs 1, cs ld; a
//                     transposed read swaps them)  →  Q (m rows of k int8, row i at Q + i·ldq)
//                     and s (m):  s_i = max_j |W_ij| / 127,  Q_ij = round(W_ij / s_i)
//   gemm_q8           C (m, n) ←/+= diag(s)·Q · B,  B (k, n) float column-major
//   quantize_activation_q8   x (k floats) → q (k int8), returns s_x = max_p |x_p| / 127 with
//                     q_p = round_half_even(x_p · 127 / max |x|): one scale for a vector (or, for
//                     per_tensor, for a whole matrix: activation_scale_q8 then quantize_q8_with)
//   gemm_q8a8         C (m, n) ←/+= diag(s)·Q · B with B's columns quantized on the fly (int8
//                     activations): C(i, j) = (Σ_p Q_ip q_pj, an int32) · (s_i · s_x,j), then
//                     + bias, + residual (the epilogue); s_x,j per column (per_token) or one for
//                     all of B (per_tensor)
//   gemm_q8a8_gelu    C (m, n) ← diag(s)·Q · GELU(H), H (k, n) float: GELU on int8 codes through
//                     a table (below), whose output codes are the product's int8 input
//
// Q is stored row-major (an output row's k weights are contiguous), the layout a dot product
// per output entry streams; the scale multiplies the finished sum, so the inner loop is int8 ×
// float only, or int8 × int8 into an int32, which is exact: every backend's gemm_q8a8 gives the
// same bits as this one (the Cortex-M DSP kernels of kernels/cortexm/q8.hpp included).
// Symmetric: no zero point, −128 unused, so the grid is ±127 · s_i.
#pragma once

#include <cstddef>
#include <cstdint>

#include "gemm.hpp"  // gemm_epilogue
#include "softmax.hpp"

namespace typeformer::kernels::scalar {

// Round half away from zero (std::round is not constexpr in C++20).
constexpr std::int8_t round_to_q8(float v) noexcept {
    const float a = v < 0 ? -v : v;
    const int r = static_cast<int>(a + 0.5f);
    const int c = r > 127 ? 127 : r;
    return static_cast<std::int8_t>(v < 0 ? -c : c);
}

constexpr void quantize_rows_q8(std::size_t m, std::size_t k, const float* W, std::size_t rs,
                                std::size_t cs, std::int8_t* Q, std::size_t ldq,
                                float* s) noexcept {
    for (std::size_t i = 0; i < m; ++i) {
        float amax = 0;
        for (std::size_t p = 0; p < k; ++p) {
            const float w = W[i * rs + p * cs];
            const float a = w < 0 ? -w : w;
            amax = a > amax ? a : amax;
        }
        // An all-zero row keeps scale 0 and codes 0: it dequantizes to exact zeros.
        s[i] = amax / 127.0f;
        const float inv = amax > 0 ? 127.0f / amax : 0.0f;
        for (std::size_t p = 0; p < k; ++p)
            Q[i * ldq + p] = round_to_q8(W[i * rs + p * cs] * inv);
    }
}

constexpr void gemm_q8(std::size_t m, std::size_t n, std::size_t k, const std::int8_t* Q,
                       std::size_t ldq, const float* s, const float* B, std::size_t ldb, float* C,
                       std::size_t ldc, bool accumulate,
                       const gemm_epilogue<float>& ep = {}) noexcept {
    for (std::size_t j = 0; j < n; ++j) {
        const float* b = B + j * ldb;
        float* c = C + j * ldc;
        for (std::size_t i = 0; i < m; ++i) {
            const std::int8_t* q = Q + i * ldq;
            float acc = 0;
            for (std::size_t p = 0; p < k; ++p)
                acc += static_cast<float>(q[p]) * b[p];
            c[i] = accumulate ? c[i] + s[i] * acc : s[i] * acc;
        }
    }
    if (!ep.empty())
        apply_epilogue(m, n, C, ldc, ep);
}

// Round half to even (what VCVTR does in the FPU's default mode, and std::nearbyint on hosts),
// written out to be constexpr; |v| < 2^22.
constexpr std::int32_t round_half_even(float v) noexcept {
    const auto t = static_cast<std::int32_t>(v);   // toward zero
    const float frac = v - static_cast<float>(t);  // exact for |v| < 2^22
    const float a = frac < 0 ? -frac : frac;
    const std::int32_t away = v < 0 ? t - 1 : t + 1;
    if (a > 0.5f || (a == 0.5f && (t & 1) != 0))
        return away;
    return t;
}

// s_x = max |x| / 127 over k entries of x, x_p at x[p·stride] (0 when x is all zeros).
constexpr float activation_amax_q8(std::size_t k, const float* x, std::size_t stride = 1) noexcept {
    float amax = 0;
    for (std::size_t p = 0; p < k; ++p) {
        const float v = x[p * stride] < 0 ? -x[p * stride] : x[p * stride];
        amax = v > amax ? v : amax;
    }
    return amax;
}

// q_p = round_half_even(x_p · 127 / amax) for a given amax ≥ max |x| (all 0 when amax is 0).
constexpr void quantize_q8_with(std::size_t k, const float* x, float amax,
                                std::int8_t* q) noexcept {
    const float inv = amax > 0 ? 127.0f / amax : 0.0f;
    for (std::size_t p = 0; p < k; ++p)
        q[p] = static_cast<std::int8_t>(round_half_even(x[p] * inv));
}

// The activation's scale s_x = amax / 127 (the same division on every backend).
constexpr float activation_scale_q8(float amax) noexcept {
    return amax / 127.0f;
}

// One activation vector: q ← its codes, returns s_x.
constexpr float quantize_activation_q8(std::size_t k, const float* x, std::int8_t* q) noexcept {
    const float amax = activation_amax_q8(k, x);
    quantize_q8_with(k, x, amax, q);
    return activation_scale_q8(amax);
}

// C(i, j) from its int32 sum: acc · (s_i · s_x) (+ the old C), then the epilogue's bias and
// residual; every backend finishes an entry with these operations in this order.
constexpr float q8a8_entry(std::int32_t acc, float s_i, float s_x, const float* old,
                           const float* bias, const float* residual) noexcept {
    float c = static_cast<float>(acc) * (s_i * s_x);
    if (old)
        c = *old + c;
    if (bias)
        c += *bias;
    if (residual)
        c += *residual;
    return c;
}

namespace detail {
// The largest |B[:, j]| of each column, or (per_tensor) of all of B for each: amax_of(j).
// Every backend's int8 products take their columns' scales from it.
template <class Amax, class Column>
constexpr void for_each_amax(std::size_t n, bool per_tensor, Amax amax_of, Column column) noexcept {
    float amax_all = 0;
    if (per_tensor)
        for (std::size_t j = 0; j < n; ++j) {
            const float a = amax_of(j);
            amax_all = a > amax_all ? a : amax_all;
        }
    for (std::size_t j = 0; j < n; ++j)
        column(j, per_tensor ? amax_all : amax_of(j));
}
}  // namespace detail

// C[:, j] (m entries) ←/+= diag(s)·Q · codes, codes (k int8) on the scale s_x.
constexpr void q8a8_codes_column(std::size_t m, std::size_t k, const std::int8_t* Q,
                                 std::size_t ldq, const float* s, const std::int8_t* codes,
                                 float s_x, float* C, std::size_t ldc, std::size_t j,
                                 bool accumulate, const gemm_epilogue<float>& ep) noexcept {
    float* c = C + j * ldc;
    for (std::size_t i = 0; i < m; ++i) {
        const std::int8_t* q = Q + i * ldq;
        std::int32_t acc = 0;
        for (std::size_t p = 0; p < k; ++p)
            acc += static_cast<std::int32_t>(q[p]) * codes[p];
        c[i] = q8a8_entry(acc, s[i], s_x, accumulate ? c + i : nullptr,
                          ep.has_bias() ? ep.bias_at(i) : nullptr,
                          ep.has_residual() ? ep.residual_at(i, j) : nullptr);
    }
}

// C ←/+= diag(s)·Q · B, B's columns quantized to int8 on the fly: one scale per column
// (per_tensor false) or for all of B; codes go through `scratch` (k int8).
constexpr void gemm_q8a8(std::size_t m, std::size_t n, std::size_t k, const std::int8_t* Q,
                         std::size_t ldq, const float* s, const float* B, std::size_t ldb, float* C,
                         std::size_t ldc, bool accumulate, bool per_tensor, std::int8_t* scratch,
                         const gemm_epilogue<float>& ep = {}) noexcept {
    detail::for_each_amax(
        n, per_tensor, [&](std::size_t j) { return activation_amax_q8(k, B + j * ldb); },
        [&](std::size_t j, float amax) {
            quantize_q8_with(k, B + j * ldb, amax, scratch);
            q8a8_codes_column(m, k, Q, ldq, s, scratch, activation_scale_q8(amax), C, ldc, j,
                              accumulate, ep);
        });
}

// ---- GELU on int8 codes: q8a8's MLP, W_2 · GELU(W_1 X + b_1) ----
//
// TFLite Micro computes an int8 GELU as a 256-entry table from the input's code to the output's,
// built from the two tensors' static (calibrated) scales. Here the hidden activation H = W_1 X +
// b_1 is quantized per token like every int8 activation, its scale rounded up to a power of two,
// s_h = 2^e, the least with max |h| ≤ 127·2^e (e in [gelu_q8_e_min, gelu_q8_e_max]: 11 tables of
// 256, 2,816 bytes of flash, the same for every model), so one table per e serves:
//
//   q_h  = clamp(round_half_even(h · 2^-e), -128, 127)       (NaN → 0, as VCVTR gives)
//   code = gelu_q8_tables<>[e − e_min][q_h + 128] = round_half_even(GELU(q_h · 2^e) / 2^e)
//
// and the codes are W_2's input on the same scale s_x = 2^e (GELU(x) ≤ x for x ≥ 0 and ≥ −0.17
// keep them in int8). So the GELU costs a multiply, a conversion and a byte load per entry, and
// W_2's input needs no second max and quantization pass. Its error: h's rounding (half a step,
// GELU' ≤ 1.13) then the output's (half a step), on a step at most twice per_token's.
inline constexpr int gelu_q8_e_min = -8, gelu_q8_e_max = 2;

// 2^e for |e| < 127, exact.
constexpr float pow2_q8(int e) noexcept {
    float v = 1.0f;
    for (; e > 0; --e)
        v *= 2.0f;
    for (; e < 0; ++e)
        v *= 0.5f;
    return v;
}

namespace detail {
// GELU(x) = x·Φ(x) in double for the tables: erf by its Maclaurin series for |x/√2| < 3 (terms
// below 1e3, so ~1e-13 absolute); beyond, GELU(x)/2^e is within 128·1.2e-5 of q_h or of 0, never
// near a rounding tie, so x and 0 give the same codes.
constexpr double gelu_for_table(double x) noexcept {
    const double u = x * 0.70710678118654752440;
    if (u >= 3)
        return x;
    if (u <= -3)
        return 0;
    double term = u, sum = u;  // Σ (−1)^n u^(2n+1) / (n! (2n+1)), to below 1e-17
    for (int n = 1; n < 60 && (term < 0 ? -term : term) > 1e-17; ++n) {
        term *= -u * u / n;
        sum += term / (2 * n + 1);
    }
    return 0.5 * x * (1 + sum * 1.12837916709551257390);  // 2/√π
}
struct gelu_q8_table_set {
    std::int8_t t[gelu_q8_e_max - gelu_q8_e_min + 1][256];
};
constexpr gelu_q8_table_set make_gelu_q8_tables() noexcept {
    gelu_q8_table_set s{};
    for (int e = gelu_q8_e_min; e <= gelu_q8_e_max; ++e) {
        const double step = pow2_q8(e);
        for (int q = -128; q < 128; ++q) {
            const double y = gelu_for_table(q * step) / step;
            auto r = static_cast<std::int32_t>(y < 0 ? y - 0.5 : y + 0.5);  // half away ...
            if (r - y == 0.5 || y - r == 0.5)                               // ... but ties to even
                r = (r & 1) ? (y < r ? r - 1 : r + 1) : r;
            s.t[e - gelu_q8_e_min][q + 128] = static_cast<std::int8_t>(r);
        }
    }
    return s;
}
}  // namespace detail

// A variable template, so that only a translation unit that uses the tables computes them (about
// 0.05 s of constant evaluation with GCC 12); T is the activations' type (float).
template <class T = float>
inline constexpr detail::gelu_q8_table_set gelu_q8_tables = detail::make_gelu_q8_tables();

// The exponent e of a column whose largest |h| is amax: the least in range with amax ≤ 127·2^e.
constexpr int gelu_q8_exponent(float amax) noexcept {
    int e = gelu_q8_e_min;
    for (float top = 127.0f * pow2_q8(e); e < gelu_q8_e_max && !(amax <= top); top *= 2.0f)
        ++e;
    return e;
}

// q_h for h · 2^-e = v: clamped to int8's range, NaN to 0.
constexpr std::int32_t gelu_q8_index(float v) noexcept {
    if (v != v)
        return 0;
    return round_half_even(v < -128.0f ? -128.0f : (v > 127.0f ? 127.0f : v));
}

// codes (k int8) ← GELU's codes of h (k floats) on the scale 2^e.
template <class T>
constexpr void gelu_q8_codes(std::size_t k, const T* h, int e, std::int8_t* codes) noexcept {
    const float inv = pow2_q8(-e);
    const std::int8_t* table = gelu_q8_tables<T>.t[e - gelu_q8_e_min] + 128;
    for (std::size_t p = 0; p < k; ++p)
        codes[p] = table[gelu_q8_index(h[p] * inv)];
}

// C ← diag(s)·Q · GELU(H) (+ the epilogue), H (k, n) float, GELU on its int8 codes (above): one
// exponent per column, or (per_tensor) one for all of H; codes through `scratch` (k int8).
template <class T>
constexpr void gemm_q8a8_gelu(std::size_t m, std::size_t n, std::size_t k, const std::int8_t* Q,
                              std::size_t ldq, const float* s, const T* H, std::size_t ldh,
                              float* C, std::size_t ldc, bool per_tensor, std::int8_t* scratch,
                              const gemm_epilogue<float>& ep = {}) noexcept {
    detail::for_each_amax(
        n, per_tensor, [&](std::size_t j) { return activation_amax_q8(k, H + j * ldh); },
        [&](std::size_t j, float amax) {
            const int e = gelu_q8_exponent(amax);
            gelu_q8_codes(k, H + j * ldh, e, scratch);
            q8a8_codes_column(m, k, Q, ldq, s, scratch, pow2_q8(e), C, ldc, j, false, ep);
        });
}

// ---- one head of attention over an int8 KV cache (infer/kv_cache.hpp's kv_int8) ----
//
// Algorithm 3's lines 4–5 for one query q (d_attn floats) against n cached positions:
//   K  column u (d_attn codes) at K + u·LdK, its scale sk[u·lds]
//   V  stored transposed: row i (codes, one per position) at Vt + i·LdV, scales sv[u·lds]
//   1. q quantized (one scale s_q), s_u = (Σ_i q_i k_iu, an int32) · (s_q · sk_u)
//   2. α = softmax(scale · s)                                          (float, alpha: n)
//   3. β_u = α_u · sv_u quantized (one scale s_β), out_i = (Σ_u β_u v_iu) · s_β
// Ops is the layer: q8_attention_ops<Dattn, LdK, Dmid, LdV> below or the Cortex-M one, which
// give the same int32 sums (exact) and differ only where their softmax does. `codes` holds the
// layer's codes of l entries (Ops::code), `sums` max(l, Dmid) ints; l ≥ n is the positions'
// capacity (the rows of Vt have LdV ≥ l bytes).
template <class Ops>
void attend_q8(std::size_t n, const float* q, const std::int8_t* K, const float* sk,
               const std::int8_t* Vt, const float* sv, std::size_t lds, float scale, float* alpha,
               typename Ops::code* codes, std::int32_t* sums, float* out) noexcept {
    const float s_q = Ops::quantize(Ops::d_attn, q, codes);
    Ops::scores(n, K, codes, sums);  // 1: Kᵀq
    for (std::size_t u = 0; u < n; ++u)
        alpha[u] = static_cast<float>(sums[u]) * (s_q * sk[u * lds]);
    Ops::softmax(n, scale, alpha);  // 2
    for (std::size_t u = 0; u < n; ++u)
        alpha[u] *= sv[u * lds];
    const float s_b = Ops::quantize(n, alpha, codes);
    Ops::mix(n, Vt, codes, sums);  // 3: V β
    for (std::size_t i = 0; i < Ops::d_mid; ++i)
        out[i] = static_cast<float>(sums[i]) * s_b;
}

// The scalar layer's attend_q8: int8 codes, plain loops.
template <std::size_t Dattn, std::size_t LdK, std::size_t Dmid, std::size_t LdV>
struct q8_attention_ops {
    using code = std::int8_t;
    static constexpr std::size_t d_attn = Dattn, d_mid = Dmid;
    static float quantize(std::size_t n, const float* x, code* codes) noexcept {
        return quantize_activation_q8(n, x, codes);
    }
    static void scores(std::size_t n, const std::int8_t* K, const code* q,
                       std::int32_t* sums) noexcept {
        for (std::size_t u = 0; u < n; ++u) {
            std::int32_t a = 0;
            for (std::size_t i = 0; i < Dattn; ++i)
                a += static_cast<std::int32_t>(K[u * LdK + i]) * q[i];
            sums[u] = a;
        }
    }
    static void mix(std::size_t n, const std::int8_t* Vt, const code* b,
                    std::int32_t* sums) noexcept {
        for (std::size_t i = 0; i < Dmid; ++i) {
            std::int32_t a = 0;
            for (std::size_t u = 0; u < n; ++u)
                a += static_cast<std::int32_t>(Vt[i * LdV + u]) * b[u];
            sums[i] = a;
        }
    }
    static void softmax(std::size_t n, float scale, float* s) noexcept {
        softmax_columns(n, std::size_t{1}, scale, false, std::ptrdiff_t{0}, s, n);
    }
};

}  // namespace typeformer::kernels::scalar
