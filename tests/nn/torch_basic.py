"""Independent reference for tests/nn/basic_test.cpp: Algorithms 1, 2, 6, 7, the MLP of
Algorithms 8-10 and the sinusoidal embedding of section 5, written from the paper's formulas
with torch ops (float64); autograd gives the gradients of loss = sum(R * output).

Called as `torch_basic.py <in> <out>` (tests/support/oracle.hpp). Every input array is named
"<block>:<tag>.<name>"; every case "<block>:<tag>" gets outputs "<block>:<tag>.<name>".
Matrices are in the paper's orientation: X is (d_e, l), W_e is (d_e, N_V), W_u is (N_V, d_e).
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))

import numpy as np  # noqa: E402
import oracle  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402


def leaf(a):
    return a.clone().requires_grad_(True)


def grads_of(loss, named):
    gs = torch.autograd.grad(loss, [t for t in named.values()])
    return {"d" + k: g for k, g in zip(named.keys(), gs)}


def check(a, b, what, tol=1e-12):
    """The formula and torch's own op must agree, or the reference itself is wrong."""
    err = (a - b).abs().max().item() if a.numel() else 0.0
    if not err <= tol:
        raise SystemExit("torch_basic.py: %s disagrees with torch (%g)" % (what, err))


# Algorithms 1 + 2 (section 5): e_t = W_e[:, x[t]] + W_p[:, t], positions from `first`.
def embedding(c):
    x = c["x"].long()
    first = int(c["first"].item())
    p = {"W_e": leaf(c["W_e"]), "W_p": leaf(c["W_p"])}
    X = p["W_e"][:, x] + p["W_p"][:, first:first + len(x)]
    return {"X": X, **grads_of((c["R"] * X).sum(), p)}


# Section 5, numpy, 1-based rows and positions as printed:
#   W_p[2i-1, t] = sin(t / l_max^(2i/d_e)), W_p[2i, t] = cos(t / l_max^(2i/d_e)), 0 < i <= d_e/2;
# for odd d_e the last row d_e continues the rule (sin, i = (d_e+1)/2) -- typeformer's choice.
def sinusoidal(c):
    d_e = int(c["d_e"].item())
    l_max = int(c["l_max"].item())
    first = int(c["first"].item())
    n = int(c["n"].item())
    W = np.zeros((d_e, n))
    for col in range(n):
        t = first + col + 1  # 1-based position of 0-based column first + col
        for i in range(1, (d_e + 1) // 2 + 1):
            angle = t / l_max ** (2 * i / d_e)
            W[2 * i - 2, col] = math.sin(angle)  # 1-based row 2i-1
            if 2 * i - 1 < d_e:
                W[2 * i - 1, col] = math.cos(angle)  # 1-based row 2i
    return {"W": torch.from_numpy(W)}


# Algorithm 6 per column, with eps under the square root (eps = 0 is the paper's).
def layer_norm(c):
    eps = c["eps"].item()
    p = {"X": leaf(c["X"]), "gamma": leaf(c["gamma"]), "beta": leaf(c["beta"])}
    e = p["X"]
    d_e = e.shape[0]
    m = e.sum(0) / d_e  # 1
    v = ((e - m) ** 2).sum(0) / d_e  # 2
    Y = (e - m) / torch.sqrt(v + eps) * p["gamma"][:, None] + p["beta"][:, None]  # 3
    check(Y, F.layer_norm(e.T, (d_e,), p["gamma"], p["beta"], eps).T, "layer_norm", 1e-9)
    return {"Y": Y, **grads_of((c["R"] * Y).sum(), p)}


# RMSnorm: Algorithm 6 with m = beta = 0.
def rms_norm(c):
    eps = c["eps"].item()
    p = {"X": leaf(c["X"]), "gamma": leaf(c["gamma"])}
    e = p["X"]
    Y = e / torch.sqrt((e**2).mean(0) + eps) * p["gamma"][:, None]
    return {"Y": Y, **grads_of((c["R"] * Y).sum(), p)}


def relu(z):
    return torch.where(z > 0, z, torch.zeros_like(z))


def gelu(z):  # GELU(x) = x * Phi(x), Phi the standard normal CDF (Algorithm 9's definition)
    y = z * 0.5 * (1 + torch.erf(z / math.sqrt(2)))
    check(y, F.gelu(z), "gelu")
    return y


def gelu_tanh(z):
    y = 0.5 * z * (1 + torch.tanh(math.sqrt(2 / math.pi) * (z + 0.044715 * z**3)))
    check(y, F.gelu(z, approximate="tanh"), "gelu_tanh")
    return y


ACTIVATIONS = [relu, gelu, gelu_tanh]  # "act" code 0, 1, 2


# Algorithms 8-10: W_mlp2 Act(W_mlp1 X + b_mlp1 1^T) + b_mlp2 1^T (without the residual).
def mlp(c):
    act = ACTIVATIONS[int(c["act"].item())]
    p = {k: leaf(c[k]) for k in ["X", "W_1", "b_1", "W_2", "b_2"]}
    ones = torch.ones(1, p["X"].shape[1])
    Y = p["W_2"] @ act(p["W_1"] @ p["X"] + p["b_1"][:, None] @ ones) + p["b_2"][:, None] @ ones
    return {"Y": Y, **grads_of((c["R"] * Y).sum(), p)}


# Algorithm 7 per column: logits = W_u e, P = softmax(logits); loss on the logits.
def unembedding(c):
    p = {"W_u": leaf(c["W_u"]), "X": leaf(c["X"])}
    logits = p["W_u"] @ p["X"]
    P = torch.exp(logits) / torch.exp(logits).sum(0, keepdim=True)
    check(P, torch.softmax(logits, 0), "softmax")
    return {"logits": logits, "P": P, **grads_of((c["R"] * logits).sum(), p)}


# Tied: W_u = W_e^T.
def tied(c):
    p = {"W_e": leaf(c["W_e"]), "X": leaf(c["X"])}
    logits = p["W_e"].T @ p["X"]
    P = torch.softmax(logits, 0)
    return {"logits": logits, "P": P, **grads_of((c["R"] * logits).sum(), p)}


BLOCKS = {
    "embedding": embedding,
    "sinusoidal": sinusoidal,
    "layer_norm": layer_norm,
    "rms_norm": rms_norm,
    "mlp": mlp,
    "unembedding": unembedding,
    "tied": tied,
}


def run(inputs):
    cases = {}
    for key, value in inputs.items():
        case, name = key.split(".", 1)
        cases.setdefault(case, {})[name] = value
    out = {}
    for case, arrays in sorted(cases.items()):
        block = case.split(":", 1)[0]
        for name, value in BLOCKS[block](arrays).items():
            out[case + "." + name] = value
    return out


if __name__ == "__main__":
    oracle.main(run)
