#!/usr/bin/python3
"""typeformer <-> PyTorch: a torch.nn.Module for each typeformer architecture, read from and
written to typeformer's safetensors files, so training can continue with PyTorch's own tools
(torch.nn.parallel.DistributedDataParallel included) and come back.

Needs only Debian's python3-torch and python3-numpy (run with /usr/bin/python3): the
safetensors reader/writer here is struct + json (Debian has no python3-safetensors).

    import typeformer_torch as tt
    m = tt.load("w.safetensors", gelu="erf", eps=1e-5)    # DTransformer / ETransformer / EDTransformer
    logits = m(x)                  # x: (B, T) int64 -> (B, T, N_V); EDTransformer: m(z, x)
    ...train...
    tt.save(m, "w2.safetensors")   # typeformer's names, shapes and order; tf::load reads it

The architecture and the variants that change the parameter set come from the file's names
(DESIGN.md, docs/weights.md): W_f -> ETransformer, encoder.* -> EDTransformer, else
DTransformer; no W_u -> tied (W_u = W_e^T); no W_p -> sinusoidal positions (pass l_max);
no beta -> RMSnorm. What the file cannot say is an argument: gelu ("erf" | "tanh"), eps.
The parameters keep the file's names (state_dict keys are typeformer's names) and shapes
(W_q is [H, d_attn, d_e]), so typeformer -> PyTorch -> typeformer is bit-exact in F32.

Command line:  typeformer_torch.py check <in.safetensors> <out.safetensors>
               (reads, builds the module, writes it back: the round trip)
"""
import json
import math
import os
import struct
import sys
from collections import OrderedDict

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

_NP = {"F32": "<f4", "F64": "<f8", "F16": "<f2"}


def read_safetensors(path):
    """-> (OrderedDict name -> torch tensor in the file's order, metadata dict)."""
    with open(path, "rb") as f:
        blob = f.read()
    (n,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8:8 + n].decode("utf-8"))
    meta = header.pop("__metadata__", {})
    data = blob[8 + n:]
    out = OrderedDict()
    for name, e in sorted(header.items(), key=lambda kv: kv[1]["data_offsets"][0]):
        b, end = e["data_offsets"]
        raw = data[b:end]
        if e["dtype"] == "BF16":
            t = torch.from_numpy(np.frombuffer(raw, dtype="<i2").astype(np.int16)).view(torch.bfloat16)
        elif e["dtype"] in _NP:
            t = torch.from_numpy(np.frombuffer(raw, dtype=_NP[e["dtype"]]).astype(_NP[e["dtype"]][1:]))
        else:
            raise ValueError("%s: tensor %s has dtype %s (F32, F64, F16, BF16 are read)" % (path, name, e["dtype"]))
        out[name] = t.reshape(e["shape"]).clone()
    return out, meta


def write_safetensors(path, tensors, metadata=None, dtype="F32"):
    """tensors: name -> tensor, written in the given order as F32 (or F64)."""
    header = OrderedDict([("__metadata__", metadata or {"format": "pt"})])
    blobs, offset = [], 0
    for name, t in tensors.items():
        a = t.detach().cpu().to(torch.float32 if dtype == "F32" else torch.float64).contiguous().numpy()
        b = a.astype(_NP[dtype]).tobytes()
        header[name] = {"dtype": dtype, "shape": list(a.shape), "data_offsets": [offset, offset + len(b)]}
        blobs.append(b)
        offset += len(b)
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * (-len(h) % 8)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h)
        for b in blobs:
            f.write(b)
    os.replace(tmp, path)  # atomic, like tf::save


class _Node(nn.Module):
    """A container whose children and parameters carry typeformer's name components."""


class TypeformerModule(nn.Module):
    """Algorithms 8, 9, 10 over parameters named as in typeformer's weights files."""

    def __init__(self, tensors, gelu="erf", eps=1e-5, l_max=None):
        super().__init__()
        self.names = list(tensors.keys())
        for name, t in tensors.items():
            self._put(name, nn.Parameter(t.clone()))
        has = set(self.names)
        self.arch = ("EDTransformer" if any(n.startswith("encoder.") for n in has)
                     else "ETransformer" if "W_f" in has else "DTransformer")
        self.tied = "W_u" not in has
        self.sinusoidal = "W_p" not in has
        self.rms = not any(n.endswith(".beta") for n in has)
        self.gelu_form = "tanh" if gelu == "tanh" else "none"
        self.eps = eps
        self.l_max = l_max if self.sinusoidal else tensors["W_p"].shape[1]
        if self.sinusoidal and l_max is None:
            raise ValueError("the file has no W_p (sinusoidal positions): pass l_max")
        first = "encoder.layers.0.attn.W_q" if self.arch == "EDTransformer" else "layers.0.attn.W_q"
        self.H = tensors[first].shape[0]

    def _put(self, name, p):
        parts = name.split(".")
        node = self
        for part in parts[:-1]:
            if part not in node._modules:
                node.add_module(part, _Node())
            node = node._modules[part]
        node.register_parameter(parts[-1], p)

    def p(self, name):
        return self.get_parameter(name)

    # ---- Algorithms 1-7, batched, row-vector convention: X is (B, T, d) = the paper's X^T ----
    def embed(self, x):
        W_e = self.p("W_e")  # (d_e, N_V)
        T = x.shape[1]
        if self.sinusoidal:
            d_e = W_e.shape[0]
            W_p = torch.zeros(d_e, T, dtype=W_e.dtype)
            for row in range(1, d_e + 1):
                i = (row + 1) // 2
                for t in range(1, T + 1):
                    a = t / (self.l_max ** (2.0 * i / d_e))
                    W_p[row - 1, t - 1] = math.sin(a) if row % 2 == 1 else math.cos(a)
        else:
            W_p = self.p("W_p")[:, :T]
        return W_e.t()[x] + W_p.t()[None]

    def norm(self, X, prefix):
        g = self.p(prefix + "gamma")
        if self.rms:
            return X / torch.sqrt((X * X).mean(-1, keepdim=True) + self.eps) * g
        return F.layer_norm(X, (X.shape[-1],), g, self.p(prefix + "beta"), self.eps)

    def attn(self, X, Z, prefix, causal):
        W = lambda n: self.p(prefix + n)  # noqa: E731
        Q = torch.einsum("btd,had->bhta", X, W("W_q")) + W("b_q")[None, :, None, :]
        K = torch.einsum("btd,had->bhta", Z, W("W_k")) + W("b_k")[None, :, None, :]
        V = torch.einsum("btd,had->bhta", Z, W("W_v")) + W("b_v")[None, :, None, :]
        S = Q @ K.transpose(-1, -2) / math.sqrt(Q.shape[-1])  # (B, H, t_x, t_z)
        if causal:
            tx, tz = S.shape[-2], S.shape[-1]
            S = S.masked_fill(torch.ones(tx, tz, dtype=torch.bool).triu(1), float("-inf"))
        Y = torch.softmax(S, dim=-1) @ V  # (B, H, t_x, d_mid)
        Y = Y.permute(0, 2, 1, 3).reshape(Y.shape[0], Y.shape[2], -1)  # heads stacked
        return F.linear(Y, W("W_o"), W("b_o"))

    def mlp(self, X, prefix, act):
        return F.linear(act(F.linear(X, self.p(prefix + "W_1"), self.p(prefix + "b_1"))),
                        self.p(prefix + "W_2"), self.p(prefix + "b_2"))

    def gelu(self, X):
        return F.gelu(X, approximate=self.gelu_form)

    def unembed(self, X):
        return X @ self.p("W_e") if self.tied else F.linear(X, self.p("W_u"))

    def forward(self, a, b=None):
        """DTransformer / ETransformer: forward(x) -> logits (B, T, N_V); EDTransformer:
        forward(z, x). typeformer's P[:, t] is softmax(logits[0, t])."""
        if self.arch == "DTransformer":  # Algorithm 10
            X = self.embed(a)
            for l in range(self._count("layers")):
                p = "layers.%d." % l
                Xt = self.norm(X, p + "ln1.")  # 5
                X = X + self.attn(Xt, Xt, p + "attn.", True)  # 6
                Xt = self.norm(X, p + "ln2.")  # 7
                X = X + self.mlp(Xt, p + "mlp.", self.gelu)  # 8
            return self.unembed(self.norm(X, "ln_f."))
        if self.arch == "ETransformer":  # Algorithm 9
            X = self.embed(a)
            for l in range(self._count("layers")):
                p = "layers.%d." % l
                X = self.norm(X + self.attn(X, X, p + "attn.", False), p + "ln1.")
                X = self.norm(X + self.mlp(X, p + "mlp.", self.gelu), p + "ln2.")
            X = self.gelu(F.linear(X, self.p("W_f"), self.p("b_f")))
            return self.unembed(self.norm(X, "ln_f."))
        Z = self.embed(a)  # Algorithm 8
        for l in range(self._count("encoder.layers")):
            p = "encoder.layers.%d." % l
            Z = self.norm(Z + self.attn(Z, Z, p + "attn.", False), p + "ln1.")
            Z = self.norm(Z + self.mlp(Z, p + "mlp.", F.relu), p + "ln2.")
        X = self.embed(b)
        for l in range(self._count("decoder.layers")):
            p = "decoder.layers.%d." % l
            X = self.norm(X + self.attn(X, X, p + "self_attn.", True), p + "ln1.")
            X = self.norm(X + self.attn(X, Z, p + "cross_attn.", False), p + "ln2.")
            X = self.norm(X + self.mlp(X, p + "mlp.", F.relu), p + "ln3.")
        return self.unembed(X)

    def _count(self, prefix):
        return len({n[len(prefix) + 1:].split(".")[0] for n in self.names if n.startswith(prefix + ".")})

    def typeformer_state(self):
        """name -> tensor in the file's order (what save writes)."""
        return OrderedDict((n, self.get_parameter(n)) for n in self.names)


def load(path, gelu="erf", eps=1e-5, l_max=None):
    tensors, _ = read_safetensors(path)
    for n, t in tensors.items():
        if t.dtype != torch.float32:
            tensors[n] = t.to(torch.float32)
    return TypeformerModule(tensors, gelu=gelu, eps=eps, l_max=l_max)


def save(module, path, dtype="F32"):
    m = module.module if hasattr(module, "module") else module  # DistributedDataParallel wraps
    write_safetensors(path, m.typeformer_state(), dtype=dtype)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "check":
        save(load(sys.argv[2]), sys.argv[3])
    else:
        sys.exit(__doc__)
