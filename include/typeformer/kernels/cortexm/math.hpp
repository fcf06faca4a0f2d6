// Float exp and erf for the Cortex-M layer, in float arithmetic only (no double is linked) and
// without newlib's libm: its expf runs ~130 instructions a call on a Cortex-M4F (with the wrapper
// and fmaxf's classifications), its erff ~90. Portable C++: the host tests check them against
// std::exp and std::erf (tests/kernels/cortexm_math_test.cpp).
//
//   exp(x)   x = k·ln 2 + r, |r| ≤ ln 2 / 2 (ln 2 in two parts, so r is exact to ~1 ulp); e^r by
//            its Taylor polynomial of degree 6 (truncation ≤ 1.2e-7 relative); 2^k from its
//            exponent bits. Relative error ≤ 2.5e-7 where the result is normal; 0 below
//            -87.33 (where e^x is subnormal or 0), +∞ above 88.72, NaN stays NaN.
//   erf(x)   kernels/erf_rational.hpp, |error| ≤ 3.7e-7
//   gelu(x)  0.5·x·(1 + erf(x/√2)) with that erf, within 1.9e-7·(|x| + |GELU(x)|)
#pragma once

#include <bit>
#include <cstdint>
#include <limits>

#include "../erf_rational.hpp"

namespace typeformer::kernels::cortexm::math {

inline float fma(float a, float b, float c) noexcept {
    return __builtin_fmaf(a, b, c);  // VFMA.F32 on FPv4/FPv5 (and fmaf on a host)
}

inline float clamp(float v, float lo, float hi) noexcept {
    return v < lo ? lo : (v > hi ? hi : v);
}

inline float exp(float x) noexcept {
    if (!(x > -87.33654f))  // below the smallest normal's log, or NaN
        return x != x ? x : 0.0f;
    if (x > 88.72283f)
        return std::numeric_limits<float>::infinity();
    // k = round(x / ln 2): adding 1.5·2^23 leaves the integer in the low bits of the mantissa.
    constexpr float magic = 12582912.0f;
    const float t = x * 1.44269504f + magic;
    const float kf = t - magic;
    const auto k = static_cast<std::int32_t>(std::bit_cast<std::uint32_t>(t) -
                                             std::bit_cast<std::uint32_t>(magic));
    const float r = fma(-kf, 1.42860677e-6f, fma(-kf, 0.693145752f, x));  // ln 2 = hi + lo
    float p = 1.0f / 720;
    p = fma(p, r, 1.0f / 120);
    p = fma(p, r, 1.0f / 24);
    p = fma(p, r, 1.0f / 6);
    p = fma(p, r, 0.5f);
    p = fma(p, r, 1.0f);
    p = fma(p, r, 1.0f);
    // 2^k for k in [-126, 128]: 128 (x near the top) is 2·2^127.
    const std::int32_t e = k > 127 ? 127 : k;
    const float scale = std::bit_cast<float>(static_cast<std::uint32_t>(e + 127) << 23);
    return k > 127 ? p * scale * 2.0f : p * scale;
}

inline float erf(float x) noexcept {
    return kernels::detail::erf_rational(x, fma, clamp);
}

// 0.5·x·(1 + erf(x/√2)), the rational function taken only where it is needed: for |x/√2| ≥ 4
// erf is ±1 in float, which saves the clamps of u on the way in (two compares each, on an M4);
// on the way out, 1 + erf is kept ≥ 0 (the fit overshoots ±1 by up to 2e-7 near ±4), so GELU
// keeps its sign. NaN stays NaN.
inline float gelu(float x) noexcept {
    const float u = x * 0.70710678118654752440f;
    float one_plus;
    if (__builtin_fabsf(u) < 4.0f) {
        one_plus = 1.0f + kernels::detail::erf_rational_fit(u, fma);
        one_plus = one_plus < 0.0f ? 0.0f : one_plus;
    } else {
        one_plus = u > 0.0f ? 2.0f : 0.0f;
    }
    return 0.5f * x * one_plus;
}

}  // namespace typeformer::kernels::cortexm::math
