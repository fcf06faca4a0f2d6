"""An independent port of typeformer's initialisation generator (include/typeformer/random.hpp),
written from its specification: splitmix64 seeding, FNV-1a 64 of the parameter name,
xoshiro256**, and Marsaglia's polar method with the atanh-series logarithm. Python floats are
IEEE binary64 and math.sqrt is correctly rounded, so the results must agree bit for bit.

Called by test_io (Params.InitEqualsTheIndependentPythonPort) as
`python3 init_ref.py <in> <out>` (tests/support/oracle.py format): in has seed, n_tensors and,
per tensor k, name<k> (the name's bytes as numbers) and count<k>; out has values<k> =
std · z for the tensor's first count<k> deviates, in file order, with std = 0.02; and raw,
the first 4 outputs of xoshiro256** seeded with 0 (high halves, then low halves).
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import oracle  # noqa: E402

M64 = (1 << 64) - 1


def splitmix64(state):
    state = (state + 0x9E3779B97F4A7C15) & M64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return state, z ^ (z >> 31)


def fnv1a64(data):
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & M64
    return h


def rotl(x, k):
    return ((x << k) | (x >> (64 - k))) & M64


class Xoshiro256ss:
    def __init__(self, seed):
        self.s = []
        for _ in range(4):
            seed, w = splitmix64(seed)
            self.s.append(w)

    def next(self):
        s = self.s
        result = (rotl((s[1] * 5) & M64, 7) * 9) & M64
        t = (s[1] << 17) & M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        return result


def stream_for(seed, name):
    _, a = splitmix64(seed)
    return Xoshiro256ss(a ^ fnv1a64(name))


LN2_HI = 48775896626292
LN2_LO = -9231015199942


def log_scaled(n, e):
    """ln(n · 2^e), as random.hpp computes it (every step a single IEEE operation)."""
    k = n.bit_length()
    m = float(n) * 2.0 ** -k
    if m < 0.70710678118654752440:
        m *= 2.0
        k -= 1
    y = (m - 1.0) / (m + 1.0)
    y2 = y * y
    term = y
    total = y
    for j in range(1, 12):
        term = term * y2
        total = total + term / float(2 * j + 1)
    ke = k + e
    kln2 = float(ke * LN2_HI) * 2.0 ** -46 + float(ke * LN2_LO) * 2.0 ** -92
    return 2.0 * total + kln2


def normals(gen):
    half = 1 << 26
    while True:
        r = gen.next()
        a = ((r >> 37) & 0x7FFFFFF) - half
        b = ((r >> 10) & 0x7FFFFFF) - half
        s_int = a * a + b * b
        if s_int == 0 or s_int >= (1 << 52):
            continue
        s = float(s_int) * 2.0 ** -52
        f = math.sqrt(-2.0 * log_scaled(s_int, -52) / s)
        yield (float(a) * 2.0 ** -26) * f
        yield (float(b) * 2.0 ** -26) * f


def run(inp):
    seed = int(inp["seed"].item())
    out = {}
    for k in range(int(inp["n_tensors"].item())):
        name = bytes(int(c) for c in inp["name%d" % k].tolist())
        count = int(inp["count%d" % k].item())
        z = normals(stream_for(seed, name))
        out["values%d" % k] = [0.02 * next(z) for _ in range(count)]
    g = Xoshiro256ss(0)  # the raw generator: 4 outputs as 32-bit halves (exact in a double)
    raw = [g.next() for _ in range(4)]
    out["raw"] = [float(v >> 32) for v in raw] + [float(v & 0xFFFFFFFF) for v in raw]
    return out


if __name__ == "__main__":
    import numpy as np

    inp = oracle.read(sys.argv[1])
    oracle.write(sys.argv[2], {k: np.array(v) for k, v in run(inp).items()})
