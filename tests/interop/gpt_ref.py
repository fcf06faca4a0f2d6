#!/usr/bin/env python3
"""Reference GPTs for typeformer's importer tests, written from the public definitions of
nanoGPT's model.py (nn.Linear [out, in], fused c_attn, nn.GELU(), LayerNorm with optional
bias, lm_head tied to wte) and Hugging Face's GPT2Model (Conv1D [in, out], gelu_new, eps 1e-5),
with random weights, saved by this file's own safetensors writer (struct + json).

  gpt_ref.py <nanogpt|hf> <bias 0|1> <seed> <weights.safetensors> <logits.tfx> <token>...
      Writes the weights (F32) and the float64 logits [T, N_V] of the float32-rounded weights.

At GPT-2 small's size (N_V 50257, 1024 positions, 12 layers, 12 heads, d_e 768), for
typeformer-generate --hf-gpt2 (tools/hf_gpt2_test.cmake):
  gpt_ref.py hf-small-write <seed> <weights.safetensors>
  gpt_ref.py hf-small-check <seed> <prompt ids, comma separated> <generated ids, comma separated>
      Rebuilds the same random model, decodes greedily from the prompt in float64 and exits
      non-zero when the generated ids differ, up to the first step whose two best logits are
      closer than 1e-3 (there float32 may legitimately choose the other).
"""
import json
import math
import os
import struct
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "support"))
import oracle  # noqa: E402

N_V, BLOCK, L, H, D_E = 50, 24, 2, 2, 16


# ---- nanoGPT (model.py) ----
class LayerNorm(nn.Module):
    def __init__(self, ndim, bias):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(ndim))
        self.bias = nn.Parameter(torch.zeros(ndim)) if bias else None

    def forward(self, x):
        return F.layer_norm(x, self.weight.shape, self.weight, self.bias, 1e-5)


class CausalSelfAttention(nn.Module):
    def __init__(self, bias):
        super().__init__()
        self.c_attn = nn.Linear(D_E, 3 * D_E, bias=bias)
        self.c_proj = nn.Linear(D_E, D_E, bias=bias)
        self.register_buffer("bias", torch.tril(torch.ones(BLOCK, BLOCK)).view(1, 1, BLOCK, BLOCK))

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(D_E, dim=2)
        k = k.view(B, T, H, C // H).transpose(1, 2)
        q = q.view(B, T, H, C // H).transpose(1, 2)
        v = v.view(B, T, H, C // H).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)


class MLP(nn.Module):
    def __init__(self, bias):
        super().__init__()
        self.c_fc = nn.Linear(D_E, 4 * D_E, bias=bias)
        self.gelu = nn.GELU()
        self.c_proj = nn.Linear(4 * D_E, D_E, bias=bias)

    def forward(self, x):
        return self.c_proj(self.gelu(self.c_fc(x)))


class Block(nn.Module):
    def __init__(self, bias):
        super().__init__()
        self.ln_1 = LayerNorm(D_E, bias)
        self.attn = CausalSelfAttention(bias)
        self.ln_2 = LayerNorm(D_E, bias)
        self.mlp = MLP(bias)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self, bias):
        super().__init__()
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(N_V, D_E), wpe=nn.Embedding(BLOCK, D_E),
            h=nn.ModuleList([Block(bias) for _ in range(L)]), ln_f=LayerNorm(D_E, bias)))
        self.lm_head = nn.Linear(D_E, N_V, bias=False)
        self.transformer.wte.weight = self.lm_head.weight

    def forward(self, idx):
        t = idx.size(1)
        x = self.transformer.wte(idx) + self.transformer.wpe(torch.arange(t))
        for block in self.transformer.h:
            x = block(x)
        return self.lm_head(self.transformer.ln_f(x))


# ---- Hugging Face GPT-2 (modeling_gpt2.py) ----
class Conv1D(nn.Module):
    def __init__(self, nf, nx):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(nx, nf))
        self.bias = nn.Parameter(torch.zeros(nf))

    def forward(self, x):
        return x @ self.weight + self.bias


def gelu_new(x):
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


class GPT2Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("bias", torch.tril(torch.ones(BLOCK, BLOCK, dtype=torch.uint8)).view(1, 1, BLOCK, BLOCK))
        self.register_buffer("masked_bias", torch.tensor(-1e4))
        self.c_attn = Conv1D(3 * D_E, D_E)
        self.c_proj = Conv1D(D_E, D_E)

    def split(self, t):
        B, T, _ = t.size()
        return t.view(B, T, H, D_E // H).permute(0, 2, 1, 3)

    def forward(self, x):
        q, k, v = self.c_attn(x).split(D_E, dim=2)
        q, k, v = self.split(q), self.split(k), self.split(v)
        w = torch.matmul(q, k.transpose(-1, -2)) / (v.size(-1) ** 0.5)
        T = x.size(1)
        causal = self.bias[:, :, :T, :T].bool()
        w = torch.where(causal, w, torch.tensor(torch.finfo(w.dtype).min, dtype=w.dtype))
        w = F.softmax(w, dim=-1)
        y = torch.matmul(w, v).permute(0, 2, 1, 3).contiguous()
        return self.c_proj(y.view(y.size(0), T, D_E))


class GPT2MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.c_fc = Conv1D(4 * D_E, D_E)
        self.c_proj = Conv1D(D_E, 4 * D_E)

    def forward(self, x):
        return self.c_proj(gelu_new(self.c_fc(x)))


class GPT2Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln_1 = nn.LayerNorm(D_E, eps=1e-5)
        self.attn = GPT2Attention()
        self.ln_2 = nn.LayerNorm(D_E, eps=1e-5)
        self.mlp = GPT2MLP()

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT2Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte = nn.Embedding(N_V, D_E)
        self.wpe = nn.Embedding(BLOCK, D_E)
        self.h = nn.ModuleList([GPT2Block() for _ in range(L)])
        self.ln_f = nn.LayerNorm(D_E, eps=1e-5)

    def forward(self, idx):
        T = idx.size(1)
        x = self.wte(idx) + self.wpe(torch.arange(T))
        for b in self.h:
            x = b(x)
        return self.ln_f(x) @ self.wte.weight.t()  # GPT2LMHeadModel's tied lm_head


def write_safetensors(path, tensors):
    header, blobs, offset = {"__metadata__": {"format": "pt"}}, [], 0
    for name, t in tensors.items():
        if t.dtype == torch.uint8:
            dtype, b = "U8", t.contiguous().numpy().tobytes()
        else:
            dtype, b = "F32", t.detach().to(torch.float32).contiguous().numpy().astype("<f4").tobytes()
        header[name] = {"dtype": dtype, "shape": list(t.shape), "data_offsets": [offset, offset + len(b)]}
        blobs.append(b)
        offset += len(b)
    h = json.dumps(header).encode()
    h += b" " * (-len(h) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)))
        f.write(h)
        for b in blobs:
            f.write(b)


def random_weights(model):
    with torch.no_grad():
        for name, p in model.named_parameters():  # random everything, γ and β included
            p.copy_(torch.randn_like(p) * (0.3 if p.dim() > 1 else 0.5) + (1.0 if name.endswith("ln_1.weight") else 0.0))


def gpt2_small(seed):
    global N_V, BLOCK, L, H, D_E
    N_V, BLOCK, L, H, D_E = 50257, 1024, 12, 12, 768
    torch.manual_seed(seed)
    model = GPT2Model()
    random_weights(model)
    return model


def hf_small(argv):
    if argv[0] == "hf-small-write":
        model = gpt2_small(int(argv[1]))
        write_safetensors(argv[2], {k: v for k, v in model.state_dict().items() if not k.endswith("masked_bias")})
        return
    model = gpt2_small(int(argv[1])).double()
    ids = [int(t) for t in argv[2].split(",")]
    got = [int(t) for t in argv[3].split(",")] if argv[3] else []
    if not got:
        sys.exit("gpt_ref: no generated ids to check")
    with torch.no_grad():
        for i, g in enumerate(got):
            logits = model(torch.tensor([ids]))[0, -1]
            top2 = torch.topk(logits, 2)
            want = int(top2.indices[0])
            if want != g:
                if float(top2.values[0] - top2.values[1]) < 1e-3:
                    print("gpt_ref: step %d is a near tie (%g); checked %d tokens" % (i, float(top2.values[0] - top2.values[1]), i))
                    return
                sys.exit("gpt_ref: step %d generated %d, greedy float64 decoding gives %d (logits %g vs %g)"
                         % (i, g, want, float(logits[g]), float(logits[want])))
            ids.append(want)
    print("gpt_ref: %d greedy tokens equal" % len(got))


def main():
    if sys.argv[1].startswith("hf-small-"):
        return hf_small(sys.argv[1:])
    layout, bias, seed, weights, out = sys.argv[1], sys.argv[2] == "1", int(sys.argv[3]), sys.argv[4], sys.argv[5]
    tokens = [int(t) for t in sys.argv[6:]]
    torch.manual_seed(seed)
    model = GPT(bias) if layout == "nanogpt" else GPT2Model()
    random_weights(model)
    state = model.state_dict()
    tensors = {k: v for k, v in state.items() if not (layout == "hf" and k.endswith("masked_bias"))}
    write_safetensors(weights, tensors)
    model = model.double()
    with torch.no_grad():
        logits = model(torch.tensor([tokens]))[0]
    oracle.write(out, {"logits": logits.numpy()})


if __name__ == "__main__":
    main()
