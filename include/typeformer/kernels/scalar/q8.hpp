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

// C ←/+= diag(s)·Q · B, B's columns quantized to int8 on the fly: one scale per column
// (per_tensor false) or for all of B; codes go through `scratch` (k int8).
constexpr void gemm_q8a8(std::size_t m, std::size_t n, std::size_t k, const std::int8_t* Q,
                         std::size_t ldq, const float* s, const float* B, std::size_t ldb, float* C,
                         std::size_t ldc, bool accumulate, bool per_tensor, std::int8_t* scratch,
                         const gemm_epilogue<float>& ep = {}) noexcept {
    float amax_all = 0;
    if (per_tensor)
        for (std::size_t j = 0; j < n; ++j) {
            const float a = activation_amax_q8(k, B + j * ldb);
            amax_all = a > amax_all ? a : amax_all;
        }
    for (std::size_t j = 0; j < n; ++j) {
        const float amax = per_tensor ? amax_all : activation_amax_q8(k, B + j * ldb);
        quantize_q8_with(k, B + j * ldb, amax, scratch);
        const float s_x = activation_scale_q8(amax);
        float* c = C + j * ldc;
        for (std::size_t i = 0; i < m; ++i) {
            const std::int8_t* q = Q + i * ldq;
            std::int32_t acc = 0;
            for (std::size_t p = 0; p < k; ++p)
                acc += static_cast<std::int32_t>(q[p]) * scratch[p];
            c[i] = q8a8_entry(acc, s[i], s_x, accumulate ? c + i : nullptr,
                              ep.has_bias() ? ep.bias_at(i) : nullptr,
                              ep.has_residual() ? ep.residual_at(i, j) : nullptr);
        }
    }
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
