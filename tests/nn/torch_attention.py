"""Reference for Algorithms 4 (Attention) and 5 (MHAttention), written from the paper's pseudocode
with explicit torch ops (no torch.nn), float64, gradients by autograd.

Input bundle: n_cases, then per case i the arrays "c<i>.<name>":
  kind      0 = Attention (Algorithm 4), 1 = MHAttention (Algorithm 5)
  causal    0 = Mask1 ≡ 1, 1 = MaskΔ[t_z, t_x] = [t_z ≤ t_x + offset]
  offset    the unidirectional mask's offset (0 is the paper's MaskΔ)
  self      1: Z = X (one tensor, so dX collects both uses); 0: cross-attention with Z
  H         number of heads (kind 1)
  X (d_x, l_x), Z (d_z, l_z) unless self, W_q, b_q, W_k, b_k, W_v, b_v[, W_o, b_o], dVt (d_out, l_x)
Output per case: Vt, dX, dZ (cross only), and grad.<param> for every parameter, where the
gradients are those of the scalar sum(Vt * dVt).
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import oracle  # noqa: E402


def mask_matrix(l_z, l_x, causal, offset):
    """Mask[t_z, t_x] as booleans: 1 everywhere, or t_z <= t_x + offset (equation (2))."""
    if not causal:
        return None
    import torch

    t_z = torch.arange(l_z)[:, None]
    t_x = torch.arange(l_x)[None, :]
    return t_z <= t_x + offset


def attention(X, Z, W_q, b_q, W_k, b_k, W_v, b_v, mask):
    """Algorithm 4."""
    import torch

    Q = W_q @ X + b_q[:, None]  # 1
    K = W_k @ Z + b_k[:, None]  # 2
    V = W_v @ Z + b_v[:, None]  # 3
    S = K.T @ Q  # 4
    if mask is not None:
        S = S.masked_fill(~mask, float("-inf"))  # 5
    d_attn = W_q.shape[0]
    return V @ torch.softmax(S / math.sqrt(d_attn), dim=0)  # 6: softmax over t_z (each column)


def mh_attention(X, Z, W_q, b_q, W_k, b_k, W_v, b_v, W_o, b_o, H, mask):
    """Algorithm 5: head h owns rows [h*d, (h+1)*d) of the stacked W_q, W_k, W_v, b_q, b_k, b_v."""
    import torch

    d_attn = W_q.shape[0] // H
    d_mid = W_v.shape[0] // H
    Ys = []
    for h in range(H):  # 1
        qa = slice(h * d_attn, (h + 1) * d_attn)
        va = slice(h * d_mid, (h + 1) * d_mid)
        Ys.append(attention(X, Z, W_q[qa], b_q[qa], W_k[qa], b_k[qa], W_v[va], b_v[va], mask))  # 2
    Y = torch.cat(Ys, dim=0)  # 3: vertical stacking
    return W_o @ Y + b_o[:, None]  # 4


def run(inp):
    out = {}
    for i in range(int(inp["n_cases"].item())):
        c = lambda name: inp["c%d.%s" % (i, name)]  # noqa: E731
        kind = int(c("kind").item())
        causal = int(c("causal").item())
        offset = int(c("offset").item())
        is_self = int(c("self").item())
        names = ["W_q", "b_q", "W_k", "b_k", "W_v", "b_v"] + (["W_o", "b_o"] if kind == 1 else [])
        params = {n: c(n).clone().requires_grad_(True) for n in names}
        X = c("X").clone().requires_grad_(True)
        Z = X if is_self else c("Z").clone().requires_grad_(True)
        mask = mask_matrix(Z.shape[1], X.shape[1], causal, offset)
        p = params
        if kind == 0:
            Vt = attention(X, Z, p["W_q"], p["b_q"], p["W_k"], p["b_k"], p["W_v"], p["b_v"], mask)
        else:
            H = int(c("H").item())
            Vt = mh_attention(X, Z, p["W_q"], p["b_q"], p["W_k"], p["b_k"], p["W_v"], p["b_v"],
                              p["W_o"], p["b_o"], H, mask)
        (Vt * c("dVt")).sum().backward()
        pre = "c%d." % i
        out[pre + "Vt"] = Vt
        out[pre + "dX"] = X.grad
        if not is_self:
            out[pre + "dZ"] = Z.grad
        for n in names:
            out[pre + "grad." + n] = params[n].grad
    return out


if __name__ == "__main__":
    oracle.main(run)
