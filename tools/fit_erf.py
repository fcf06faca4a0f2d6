#!/usr/bin/python3
"""The rational approximation of erf in kernels/simd/activation.hpp (float GELU), refitted.

erf(x) ≈ x·P(x²) / Q(x²) on [0, 4] (erf is odd; past 4 it is 1 in float), P of degree 6 and Q of
degree 4 in x², Q(0) = 1, fitted for the least maximum relative error: a linearised least-squares
fit (x·P − erf·Q ≈ 0, weighted by 1/(Q·erf) of the previous round) whose weights are then raised
where the error peaks (Lawson's iteration), in double. It then evaluates the float form the kernel
runs (coefficients rounded to float, Horner in float, x clamped to [-4, 4]) on a dense grid and
prints the largest errors: of erf, and of GELU(x) = x/2·(1 + erf(x/√2)) relative to |x| + |GELU|,
the scale elementwise_test.cpp's tolerance uses.

    /usr/bin/python3 tools/fit_erf.py      # needs python3-numpy
"""
import math

import numpy as np

DEG_P, DEG_Q, CLAMP = 6, 4, 4.0


def fit():
    x = np.linspace(1e-6, CLAMP, 40001)
    y = np.array([math.erf(v) for v in x])
    z = x * x
    cols = [x * z**i for i in range(DEG_P + 1)] + [-y * z**i for i in range(1, DEG_Q + 1)]
    M = np.stack(cols, 1)
    w = np.ones_like(x)
    q = np.ones_like(x)
    for it in range(80):
        s = w / (q * y)
        sol, *_ = np.linalg.lstsq(M * s[:, None], y * s, rcond=None)
        P, Q = sol[:DEG_P + 1], np.concatenate([[1.0], sol[DEG_P + 1:]])
        q = np.polyval(Q[::-1], z)
        err = np.abs(x * np.polyval(P[::-1], z) / q - y) / y
        if it >= 5:  # Lawson: more weight where the error is large
            w *= np.sqrt(err / err.max() + 1e-3)
            w /= w.max()
    return P, Q, err.max()


def erf_float(x, P, Q):
    f = np.float32
    x = np.clip(x.astype(f), f(-CLAMP), f(CLAMP))
    z = x * x
    p = f(P[-1])
    for c in P[-2::-1]:
        p = p * z + f(c)
    q = f(Q[-1])
    for c in Q[-2::-1]:
        q = q * z + f(c)
    return np.clip(x * p / q, f(-1), f(1))


def main():
    P, Q, err = fit()
    print(f"fit: max relative error {err:.3g} on [0, {CLAMP}] (double)")
    print("P:", ", ".join(f"{float(np.float32(c)):.9g}f" for c in P))
    print("Q:", ", ".join(f"{float(np.float32(c)):.9g}f" for c in Q))
    xs = np.linspace(-8, 8, 1600001).astype(np.float32)
    ref = np.array([math.erf(float(v)) for v in xs])
    got = erf_float(xs, P, Q).astype(np.float64)
    print(f"float erf: max |error| {np.abs(got - ref).max():.3g}")
    g_ref = 0.5 * xs.astype(np.float64) * (1 + np.array([math.erf(float(v) / math.sqrt(2)) for v in xs]))
    g = (np.float32(0.5) * xs * (np.float32(1) + erf_float(xs * np.float32(1 / math.sqrt(2)), P, Q)))
    rel = np.abs(g.astype(np.float64) - g_ref) / (np.abs(xs) + np.abs(g_ref) + 1e-30)
    print(f"float GELU: max |error| / (|x| + |GELU(x)|) {rel.max():.3g}")


if __name__ == "__main__":
    main()
