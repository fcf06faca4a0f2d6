"""Independent reference for tests/models: Algorithms 8, 9, 10 and the losses of 11-13 of
*Formal Algorithms for Transformers* (Phuong & Hutter, 2022), written from the paper's
pseudocode with explicit float64 tensor operations, differentiated by PyTorch autograd.

Called by the C++ tests as `python3 torch_models.py <in> <out>` (tests/support/oracle.py format).
The input bundle holds one or more cases; case k's arrays are prefixed "c<k>.":

  c<k>.arch        0 = DTransformer (Alg 10), 1 = ETransformer (Alg 9), 2 = EDTransformer (Alg 8)
  c<k>.H           number of heads
  c<k>.eps         layer-norm epsilon (0 is Algorithm 6 exactly)
  c<k>.rms         1: RMSnorm instead of layer_norm (no beta)
  c<k>.tied        1: W_u = W_e^T
  c<k>.sinusoidal  1: sinusoidal positions instead of W_p
  c<k>.gelu_tanh   1: tanh approximation of GELU
  c<k>.L, c<k>.L_enc, c<k>.L_dec, c<k>.l_max
  c<k>.x           tokens (0-based ids); ETransformer: the targets x of Algorithm 12
  c<k>.x_tilde     ETransformer only: the masked input x~ of Algorithm 12
  c<k>.z           EDTransformer only: the context sequence
  c<k>.W.<name>    every parameter under its weights-file name (DESIGN.md), in the paper's
                   orientation; the head-stacked ones as (H*d, .) matrices

Output per case: c<k>.P (N_V, l_x), c<k>.loss (scalar), c<k>.grad.<name> for every parameter.
"""
import math
import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import oracle  # noqa: E402


# ---- Algorithms 1-7 -----------------------------------------------------------------------------

def embed(x, W, c):
    """Algorithms 1 + 2: e_t = W_e[:, x[t]] + W_p[:, t] for t in [l]; returns X = [e_1 ... e_l]."""
    d_e = W["W_e"].shape[0]
    cols = []
    for t in range(len(x)):
        e = W["W_e"][:, x[t]]
        if c["sinusoidal"]:
            e = e + sinusoid(t + 1, d_e, c["l_max"])  # the paper's 1-based position
        else:
            e = e + W["W_p"][:, t]
        cols.append(e)
    return torch.stack(cols, dim=1)


def sinusoid(t, d_e, l_max):
    """Section 5: W_p[2i-1, t] = sin(t / l_max^(2i/d_e)), W_p[2i, t] = cos(t / l_max^(2i/d_e)),
    1-based rows and positions, 0 < i <= d_e/2; an odd d_e's last row continues the rule (sin)."""
    out = torch.zeros(d_e)
    for row in range(1, d_e + 1):
        i = (row + 1) // 2
        angle = t / (l_max ** (2.0 * i / d_e))
        out[row - 1] = math.sin(angle) if row % 2 == 1 else math.cos(angle)
    return out


def attention(X, Z, W_q, b_q, W_k, b_k, W_v, b_v, causal):
    """Algorithm 4: one head. X (d_x, l_x), Z (d_z, l_z)."""
    Q = W_q @ X + b_q[:, None]  # 1: (d_attn, l_x)
    K = W_k @ Z + b_k[:, None]  # 2: (d_attn, l_z)
    V = W_v @ Z + b_v[:, None]  # 3: (d_mid, l_z)
    S = K.T @ Q  # 4: (l_z, l_x)
    if causal:  # 5: Mask[t_z, t_x] = [t_z <= t_x]
        l_z, l_x = S.shape
        keep = torch.tensor([[tz <= tx for tx in range(l_x)] for tz in range(l_z)])
        S = S.masked_fill(~keep, float("-inf"))
    d_attn = W_q.shape[0]
    return V @ torch.softmax(S / math.sqrt(d_attn), dim=0)  # 6: softmax over t_z (each column)


def mh_attention(X, Z, W, prefix, H, causal):
    """Algorithm 5: H heads stacked vertically, then W_o Y + b_o."""
    W_q, b_q = W[prefix + "W_q"], W[prefix + "b_q"]
    W_k, b_k = W[prefix + "W_k"], W[prefix + "b_k"]
    W_v, b_v = W[prefix + "W_v"], W[prefix + "b_v"]
    d_attn = W_q.shape[0] // H
    d_mid = W_v.shape[0] // H
    heads = []
    for h in range(H):  # 1-2
        qa, qb = h * d_attn, (h + 1) * d_attn
        va, vb = h * d_mid, (h + 1) * d_mid
        heads.append(attention(X, Z, W_q[qa:qb], b_q[qa:qb], W_k[qa:qb], b_k[qa:qb],
                               W_v[va:vb], b_v[va:vb], causal))
    Y = torch.cat(heads, dim=0)  # 3: vertical stacking
    return W[prefix + "W_o"] @ Y + W[prefix + "b_o"][:, None]  # 4


def layer_norm(X, W, prefix, eps, rms):
    """Algorithm 6 per column (population variance, eps inside the root); RMSnorm: m = beta = 0."""
    gamma = W[prefix + "gamma"]
    if rms:
        v = (X * X).mean(dim=0, keepdim=True)
        return X / torch.sqrt(v + eps) * gamma[:, None]
    m = X.mean(dim=0, keepdim=True)  # 1
    v = ((X - m) ** 2).mean(dim=0, keepdim=True)  # 2
    return (X - m) / torch.sqrt(v + eps) * gamma[:, None] + W[prefix + "beta"][:, None]  # 3


def gelu(X, tanh):
    if tanh:
        return 0.5 * X * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (X + 0.044715 * X ** 3)))
    return 0.5 * X * (1.0 + torch.erf(X / math.sqrt(2.0)))


def relu(X):
    return torch.clamp(X, min=0.0)


def mlp(X, W, prefix, act):
    """W_2 act(W_1 X + b_1 1^T) + b_2 1^T (Algorithms 8-10)."""
    return W[prefix + "W_2"] @ act(W[prefix + "W_1"] @ X + W[prefix + "b_1"][:, None]) + \
        W[prefix + "b_2"][:, None]


def unembed(X, W, tied):
    """Algorithm 7 without the softmax: the logits W_u X."""
    W_u = W["W_e"].T if tied else W["W_u"]
    return W_u @ X


# ---- Algorithms 8, 9, 10 (returning logits; P = softmax(logits) over each column) -----------------

def dtransformer(x, W, c):
    """Algorithm 10 (GPT-2, pre-norm)."""
    X = embed(x, W, c)  # 1-3
    act = lambda A: gelu(A, c["gelu_tanh"])  # noqa: E731
    for l in range(c["L"]):  # 4
        p = "layers.%d." % l
        Xt = layer_norm(X, W, p + "ln1.", c["eps"], c["rms"])  # 5
        X = X + mh_attention(Xt, Xt, W, p + "attn.", c["H"], causal=True)  # 6
        Xt = layer_norm(X, W, p + "ln2.", c["eps"], c["rms"])  # 7
        X = X + mlp(Xt, W, p + "mlp.", act)  # 8
    X = layer_norm(X, W, "ln_f.", c["eps"], c["rms"])  # 10
    return unembed(X, W, c["tied"])  # 11


def etransformer(x, W, c):
    """Algorithm 9 (BERT, post-norm), with W_u of shape (N_V, d_f)."""
    X = embed(x, W, c)  # 1-3
    act = lambda A: gelu(A, c["gelu_tanh"])  # noqa: E731
    for l in range(c["L"]):  # 4
        p = "layers.%d." % l
        X = X + mh_attention(X, X, W, p + "attn.", c["H"], causal=False)  # 5
        X = layer_norm(X, W, p + "ln1.", c["eps"], c["rms"])  # 6
        X = X + mlp(X, W, p + "mlp.", act)  # 7
        X = layer_norm(X, W, p + "ln2.", c["eps"], c["rms"])  # 8
    X = act(W["W_f"] @ X + W["b_f"][:, None])  # 10
    X = layer_norm(X, W, "ln_f.", c["eps"], c["rms"])  # 11
    return unembed(X, W, c["tied"])  # 12


def edtransformer(z, x, W, c):
    """Algorithm 8 (the original encoder-decoder, post-norm, ReLU)."""
    Z = embed(z, W, c)  # 1-3
    for l in range(c["L_enc"]):  # 4
        p = "encoder.layers.%d." % l
        Z = Z + mh_attention(Z, Z, W, p + "attn.", c["H"], causal=False)  # 5
        Z = layer_norm(Z, W, p + "ln1.", c["eps"], c["rms"])  # 6
        Z = Z + mlp(Z, W, p + "mlp.", relu)  # 7
        Z = layer_norm(Z, W, p + "ln2.", c["eps"], c["rms"])  # 8
    X = embed(x, W, c)  # 10-12
    for l in range(c["L_dec"]):  # 13
        p = "decoder.layers.%d." % l
        X = X + mh_attention(X, X, W, p + "self_attn.", c["H"], causal=True)  # 14
        X = layer_norm(X, W, p + "ln1.", c["eps"], c["rms"])  # 15
        X = X + mh_attention(X, Z, W, p + "cross_attn.", c["H"], causal=False)  # 16
        X = layer_norm(X, W, p + "ln2.", c["eps"], c["rms"])  # 17
        X = X + mlp(X, W, p + "mlp.", relu)  # 18
        X = layer_norm(X, W, p + "ln3.", c["eps"], c["rms"])  # 19
    return unembed(X, W, c["tied"])  # 21


# ---- losses (Algorithms 11-13): sums of -log P, log P by log-softmax of the logits -------------

def log_softmax_columns(logits):
    return logits - torch.logsumexp(logits, dim=0, keepdim=True)


def next_token_loss(logits, x):
    """Algorithms 11 and 13, line 5: -sum_{t=1}^{l-1} log P[x[t+1], t] (0-based: t = 0..l-2)."""
    logP = log_softmax_columns(logits)
    loss = torch.zeros(())
    for t in range(len(x) - 1):
        loss = loss - logP[x[t + 1], t]
    return loss


def masked_loss(logits, x_tilde, x, mask_token):
    """Algorithm 12, lines 7 and 9: -sum over t with x~[t] = mask_token of log P[x[t], t]."""
    logP = log_softmax_columns(logits)
    loss = torch.zeros(())
    for t in range(len(x)):
        if x_tilde[t] == mask_token:
            loss = loss - logP[x[t], t]
    return loss


def run_case(inp, k):
    pre = "c%d." % k
    get = lambda name: inp[pre + name]  # noqa: E731
    c = {
        "H": int(get("H")), "eps": float(get("eps")), "rms": bool(get("rms")),
        "tied": bool(get("tied")), "sinusoidal": bool(get("sinusoidal")),
        "gelu_tanh": bool(get("gelu_tanh")), "L": int(get("L")), "L_enc": int(get("L_enc")),
        "L_dec": int(get("L_dec")), "l_max": int(get("l_max")),
    }
    W = {}
    for key, value in inp.items():
        if key.startswith(pre + "W."):
            W[key[len(pre) + 2:]] = value.clone().requires_grad_(True)
    tokens = lambda name: [int(v) for v in get(name).reshape(-1).tolist()]  # noqa: E731
    arch = int(get("arch"))
    x = tokens("x")
    N_V = W["W_e"].shape[1]
    if arch == 0:
        logits = dtransformer(x, W, c)
        loss = next_token_loss(logits, x)
    elif arch == 1:
        x_tilde = tokens("x_tilde")
        logits = etransformer(x_tilde, W, c)
        loss = masked_loss(logits, x_tilde, x, N_V - 3)  # mask_token, 0-based
    else:
        z = tokens("z")
        logits = edtransformer(z, x, W, c)
        loss = next_token_loss(logits, x)
    out = {pre + "P": torch.softmax(logits, dim=0), pre + "loss": loss}
    out.update(gradients(loss, W, pre))
    return out


def gradients(loss, W, pre):
    """{pre + "grad." + name: d loss / d W[name]} for every tensor of W; zeros where the loss does
    not depend on it (also when there is no target at all, a one-token sequence or nothing masked,
    and the loss is the constant 0)."""
    names = sorted(W)
    if loss.requires_grad:
        grads = torch.autograd.grad(loss, [W[n] for n in names], allow_unused=True)
    else:
        grads = [None] * len(names)
    return {pre + "grad." + n: torch.zeros_like(W[n]) if g is None else g
            for n, g in zip(names, grads)}


def all_cases(run_case):
    """The oracle's main over inp["ncases"] cases, each run_case(inp, k) giving its outputs."""
    def main(inp):
        out = {}
        for k in range(int(inp["ncases"])):
            out.update(run_case(inp, k))
        return out
    return main


main = all_cases(run_case)


if __name__ == "__main__":
    oracle.main(main)
