// The float erf of GELU: one rational function, erf(u) ≈ u·P(u²)/Q(u²) with u clamped to
// [-4, 4] (past 4, erf is 1 in float), fitted by tools/fit_erf.py: |error| ≤ 3.7e-7 (a few float
// ulps of 1), GELU within 1.9e-7·(|x| + |GELU(x)|). The SIMD layer evaluates it on batches, the
// Cortex-M layer on floats: V is float or a batch, fma(a, b, c) = a·b + c and clamp(v, lo, hi)
// are the caller's, so both run the same operations in the same order.
#pragma once

namespace typeformer::kernels::detail {

// u·P(u²)/Q(u²) for |u| ≤ 4.
template <class V, class Fma>
constexpr V erf_rational_fit(V u, Fma fma) noexcept {
    const V z = u * u;
    V p(1.9112127e-08f);
    p = fma(p, z, V(-1.94233508e-06f));
    p = fma(p, z, V(0.00014727778f));
    p = fma(p, z, V(0.00399011141f));
    p = fma(p, z, V(0.0515233502f));
    p = fma(p, z, V(0.207113788f));
    p = fma(p, z, V(1.12837911f));
    V q(0.00102100894f);
    q = fma(q, z, V(0.0149571002f));
    q = fma(q, z, V(0.117966004f));
    q = fma(q, z, V(0.516881049f));
    q = fma(q, z, V(1.0f));
    return u * p / q;
}

// erf(u) for any u. The fit overshoots ±1 by up to 2e-7 near ±4: clamped, 1 + erf never turns
// negative (nor GELU's sign) in the far tails.
template <class V, class Fma, class Clamp>
constexpr V erf_rational(V u, Fma fma, Clamp clamp) noexcept {
    return clamp(erf_rational_fit(clamp(u, V(-4.0f), V(4.0f)), fma), V(-1.0f), V(1.0f));
}

}  // namespace typeformer::kernels::detail
