#!/usr/bin/env python3
"""Reference GPTs for typeformer's importer and bridge tests, written here from the public
definitions of nanoGPT's model.py (GPTConfig, nn.Linear [out, in], fused c_attn, nn.GELU(),
LayerNorm with optional bias and eps 1e-5, lm_head tied to wte, configure_optimizers' two AdamW
groups, train.py's checkpoint dict) and Hugging Face's modeling_gpt2.py (GPT2Config, Conv1D
[in, out], ACT2FN's gelu_new / gelu, layer_norm_epsilon, GPT2LMHeadModel's tied or untied
lm_head), with random weights. Neither nanoGPT nor transformers can be installed here; these are
the oracles, independent of tools/typeformer_torch.py (which the tests run only as the converter
under test). Files are written and read with this file's own safetensors code (struct + json).

  gpt_ref.py nanogpt-ckpt <bias 0|1> <seed> <compiled 0|1> <tied 0|1> <ckpt.pt> <logits.tfx> <n_head> <token>...
      train.py's ckpt.pt of a random GPT (torch.compile's `_orig_mod.` names when compiled; the
      causal-mask buffers torch < 2.0 gives), and the float64 logits [T, N_V] of its float32
      weights.
  gpt_ref.py hf <seed> <dir> <logits.tfx> <activation> <eps> <tied 0|1> <token>...
      dir/model.safetensors (the hub's names; GPT2LMHeadModel's with lm_head when untied) and
      dir/config.json, and the logits.
  gpt_ref.py nanogpt-resume <ckpt.pt> <out.pt> <logits_before.tfx> <logits_after.tfx> <token>...
      what train.py does with init_from='resume' and the options of the checkpoint's config as
      its flags: a GPT from ckpt['model_args'], strict load_state_dict, AdamW of
      configure_optimizers' groups with load_state_dict(ckpt['optimizer']); the logits; one
      iteration on the tokens' cross-entropy (get_lr's learning rate, grad_clip); train.py's
      checkpoint of it; the logits after the step.
  gpt_ref.py hf-check <dir> <logits.tfx> <token>...
      GPT2LMHeadModel from dir/config.json, its state dict loaded from dir/model.safetensors as
      from_pretrained does (only the attention-mask buffers may be missing); the logits.
  gpt_ref.py nan <in.safetensors> <out.safetensors> <tensor>
      a copy with one NaN in the tensor.
  gpt_ref.py char-ckpt <text> <root> <dataset> <n_layer> <n_head> <n_embd> <block> <seed> <ids.tfx> <logits.tfx>
      a character-level model as nanoGPT's shakespeare_char makes one: root/data/<dataset>/
      meta.pkl (prepare.py), root/out-<dataset>/ckpt.pt (bias=False), the text's ids, logits.
(jobs.py runs these in one process: run(argv).)

At GPT-2 small's size (N_V 50257, 1024 positions, 12 layers, 12 heads, d_e 768):
gpt2_small(seed), for tools/gpt2_presets_test.py. For nanoGPT's character models:
prepare_char (data/shakespeare_char/prepare.py), char_ckpt, greedy (float64 decoding), for
tools/gpt_import_test.py.
"""
import json
import math
import os
import struct
import sys
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "support"))
import oracle  # noqa: E402


@dataclass
class GPTConfig:  # nanoGPT's, and the same sizes for GPT-2
    block_size: int = 24
    vocab_size: int = 50
    n_layer: int = 2
    n_head: int = 2
    n_embd: int = 16
    dropout: float = 0.0
    bias: bool = True


# ---- nanoGPT (model.py) ----
class LayerNorm(nn.Module):
    def __init__(self, ndim, bias):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(ndim))
        self.bias = nn.Parameter(torch.zeros(ndim)) if bias else None

    def forward(self, x):
        return F.layer_norm(x, self.weight.shape, self.weight, self.bias, 1e-5)


class CausalSelfAttention(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c_attn = nn.Linear(c.n_embd, 3 * c.n_embd, bias=c.bias)
        self.c_proj = nn.Linear(c.n_embd, c.n_embd, bias=c.bias)
        self.n_head, self.n_embd = c.n_head, c.n_embd
        # torch < 2.0 has no scaled_dot_product_attention: model.py registers the mask
        self.register_buffer("bias", torch.tril(torch.ones(c.block_size, c.block_size))
                             .view(1, 1, c.block_size, c.block_size))

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:, :, :T, :T] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)


class MLP(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c_fc = nn.Linear(c.n_embd, 4 * c.n_embd, bias=c.bias)
        self.gelu = nn.GELU()
        self.c_proj = nn.Linear(4 * c.n_embd, c.n_embd, bias=c.bias)

    def forward(self, x):
        return self.c_proj(self.gelu(self.c_fc(x)))


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.ln_1 = LayerNorm(c.n_embd, c.bias)
        self.attn = CausalSelfAttention(c)
        self.ln_2 = LayerNorm(c.n_embd, c.bias)
        self.mlp = MLP(c)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self, c, tied=True):
        super().__init__()
        self.config = c
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(c.vocab_size, c.n_embd), wpe=nn.Embedding(c.block_size, c.n_embd),
            h=nn.ModuleList([Block(c) for _ in range(c.n_layer)]), ln_f=LayerNorm(c.n_embd, c.bias)))
        self.lm_head = nn.Linear(c.n_embd, c.vocab_size, bias=False)
        if tied:  # model.py always ties; a fork that does not is the untied case
            self.transformer.wte.weight = self.lm_head.weight

    def forward(self, idx):
        t = idx.size(1)
        x = self.transformer.wte(idx) + self.transformer.wpe(torch.arange(t))
        for block in self.transformer.h:
            x = block(x)
        return self.lm_head(self.transformer.ln_f(x))

    def configure_optimizers(self, weight_decay, learning_rate, betas):
        param_dict = {pn: p for pn, p in self.named_parameters() if p.requires_grad}
        decay = [p for n, p in param_dict.items() if p.dim() >= 2]
        nodecay = [p for n, p in param_dict.items() if p.dim() < 2]
        groups = [{"params": decay, "weight_decay": weight_decay},
                  {"params": nodecay, "weight_decay": 0.0}]
        return torch.optim.AdamW(groups, lr=learning_rate, betas=betas)


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


ACT2FN = {"gelu_new": gelu_new, "gelu": lambda x: F.gelu(x)}


@dataclass
class GPT2Config:
    vocab_size: int = 50
    n_positions: int = 24
    n_embd: int = 16
    n_layer: int = 2
    n_head: int = 2
    n_inner: int = None
    activation_function: str = "gelu_new"
    layer_norm_epsilon: float = 1e-5
    tie_word_embeddings: bool = True


class GPT2Attention(nn.Module):
    def __init__(self, c):
        super().__init__()
        T = c.n_positions
        self.register_buffer("bias", torch.tril(torch.ones(T, T, dtype=torch.uint8)).view(1, 1, T, T))
        self.register_buffer("masked_bias", torch.tensor(-1e4))
        self.c_attn = Conv1D(3 * c.n_embd, c.n_embd)
        self.c_proj = Conv1D(c.n_embd, c.n_embd)
        self.n_head, self.n_embd = c.n_head, c.n_embd

    def split(self, t):
        B, T, _ = t.size()
        return t.view(B, T, self.n_head, self.n_embd // self.n_head).permute(0, 2, 1, 3)

    def forward(self, x):
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        q, k, v = self.split(q), self.split(k), self.split(v)
        w = torch.matmul(q, k.transpose(-1, -2)) / (v.size(-1) ** 0.5)
        T = x.size(1)
        causal = self.bias[:, :, :T, :T].bool()
        w = torch.where(causal, w, torch.tensor(torch.finfo(w.dtype).min, dtype=w.dtype))
        w = F.softmax(w, dim=-1)
        y = torch.matmul(w, v).permute(0, 2, 1, 3).contiguous()
        return self.c_proj(y.view(y.size(0), T, self.n_embd))


class GPT2MLP(nn.Module):
    def __init__(self, c):
        super().__init__()
        inner = c.n_inner if c.n_inner is not None else 4 * c.n_embd
        self.c_fc = Conv1D(inner, c.n_embd)
        self.c_proj = Conv1D(c.n_embd, inner)
        self.act = ACT2FN[c.activation_function]

    def forward(self, x):
        return self.c_proj(self.act(self.c_fc(x)))


class GPT2Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.ln_1 = nn.LayerNorm(c.n_embd, eps=c.layer_norm_epsilon)
        self.attn = GPT2Attention(c)
        self.ln_2 = nn.LayerNorm(c.n_embd, eps=c.layer_norm_epsilon)
        self.mlp = GPT2MLP(c)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT2Model(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.wte = nn.Embedding(c.vocab_size, c.n_embd)
        self.wpe = nn.Embedding(c.n_positions, c.n_embd)
        self.h = nn.ModuleList([GPT2Block(c) for _ in range(c.n_layer)])
        self.ln_f = nn.LayerNorm(c.n_embd, eps=c.layer_norm_epsilon)

    def forward(self, idx):
        T = idx.size(1)
        x = self.wte(idx) + self.wpe(torch.arange(T))
        for b in self.h:
            x = b(x)
        return self.ln_f(x)


class GPT2LMHeadModel(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.transformer = GPT2Model(c)
        self.lm_head = nn.Linear(c.n_embd, c.vocab_size, bias=False)
        if c.tie_word_embeddings:
            self.lm_head.weight = self.transformer.wte.weight

    def forward(self, idx):
        return self.lm_head(self.transformer(idx))


# ---- files ----
def write_safetensors(path, tensors, metadata=None):
    header, blobs, offset = {"__metadata__": dict(metadata or {"format": "pt"})}, [], 0
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


def read_safetensors(path):
    with open(path, "rb") as f:
        blob = f.read()
    (n,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8:8 + n])
    meta = header.pop("__metadata__", {})
    out = {}
    for name, e in header.items():
        b, end = e["data_offsets"]
        assert e["dtype"] in ("F32", "U8"), (name, e["dtype"])
        a = np.frombuffer(blob[8 + n + b:8 + n + end], dtype="<f4" if e["dtype"] == "F32" else "u1")
        a = a.reshape(e["shape"])
        out[name] = torch.from_numpy(a.copy())
    return out, meta


def random_weights(model):
    with torch.no_grad():
        for name, p in model.named_parameters():  # random everything, γ and β included
            p.copy_(torch.randn_like(p) * (0.3 if p.dim() > 1 else 0.5) + (1.0 if name.endswith("ln_1.weight") else 0.0))


def logits_of(model, tokens):
    model = model.double()
    with torch.no_grad():
        return model(torch.tensor([tokens]))[0].numpy()


def nanogpt_ckpt(argv):
    bias, seed, compiled, tied = argv[0] == "1", int(argv[1]), argv[2] == "1", argv[3] == "1"
    path, out, n_head = argv[4], argv[5], int(argv[6])
    tokens = [int(t) for t in argv[7:]]
    torch.manual_seed(seed)
    c = GPTConfig(n_head=n_head, bias=bias)
    model = GPT(c, tied=tied)
    random_weights(model)
    sd = model.state_dict()
    if compiled:  # train.py saves raw_model.state_dict() of torch.compile(model): _orig_mod.*
        sd = {"_orig_mod." + k: v for k, v in sd.items()}
    opt = model.configure_optimizers(0.1, 6e-4, (0.9, 0.95))
    model_args = dict(n_layer=c.n_layer, n_head=c.n_head, n_embd=c.n_embd, block_size=c.block_size,
                      bias=c.bias, vocab_size=c.vocab_size, dropout=c.dropout)
    torch.save({"model": sd, "optimizer": opt.state_dict(), "model_args": model_args,
                "iter_num": 250, "best_val_loss": torch.tensor(1.5), "config": {"batch_size": 12}}, path)
    oracle.write(out, {"logits": logits_of(model, tokens)})


def hf(argv):
    seed, directory, out, activation, eps, tied = (int(argv[0]), argv[1], argv[2], argv[3],
                                                    float(argv[4]), argv[5] == "1")
    tokens = [int(t) for t in argv[6:]]
    torch.manual_seed(seed)
    c = GPT2Config(activation_function=activation, layer_norm_epsilon=eps, tie_word_embeddings=tied)
    model = GPT2LMHeadModel(c)
    random_weights(model)
    os.makedirs(directory, exist_ok=True)
    sd = model.state_dict()
    if tied:  # the hub's model.safetensors: GPT2Model's names, no lm_head
        sd = {k[len("transformer."):]: v for k, v in sd.items() if k.startswith("transformer.")}
    sd = {k: v for k, v in sd.items() if not k.endswith("masked_bias")}
    write_safetensors(os.path.join(directory, "model.safetensors"), sd)
    with open(os.path.join(directory, "config.json"), "w") as f:
        json.dump({"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"],
                   "vocab_size": c.vocab_size, "n_positions": c.n_positions, "n_embd": c.n_embd,
                   "n_layer": c.n_layer, "n_head": c.n_head, "n_inner": None,
                   "activation_function": activation, "layer_norm_epsilon": eps,
                   "tie_word_embeddings": tied, "task_specific_params": {"text-generation": {"do_sample": True}}}, f)
    oracle.write(out, {"logits": logits_of(model, tokens)})


# train.py's defaults, for what a checkpoint's config leaves out
TRAIN_PY = {"learning_rate": 6e-4, "weight_decay": 1e-1, "beta1": 0.9, "beta2": 0.95,
            "grad_clip": 1.0, "decay_lr": True, "warmup_iters": 2000, "lr_decay_iters": 600000,
            "min_lr": 6e-5}


def get_lr(it, c):  # train.py's
    if it < c["warmup_iters"]:
        return c["learning_rate"] * (it + 1) / (c["warmup_iters"] + 1)
    if it > c["lr_decay_iters"]:
        return c["min_lr"]
    decay_ratio = (it - c["warmup_iters"]) / (c["lr_decay_iters"] - c["warmup_iters"])
    coeff = 0.5 * (1.0 + math.cos(math.pi * decay_ratio))
    return c["min_lr"] + coeff * (c["learning_rate"] - c["min_lr"])


def nanogpt_resume(argv):
    """train.py with init_from='resume' and the flags of the checkpoint's config, one iteration."""
    path, out_path, before, after = argv[:4]
    tokens = [int(t) for t in argv[4:]]
    ckpt = torch.load(path, map_location="cpu")
    c = GPTConfig(**{k: ckpt["model_args"][k] for k in
                     ["n_layer", "n_head", "n_embd", "block_size", "bias", "vocab_size"]})
    model = GPT(c)
    sd = ckpt["model"]
    for k in list(sd.keys()):  # train.py strips torch.compile's prefix
        if k.startswith("_orig_mod."):
            sd[k[len("_orig_mod."):]] = sd.pop(k)
    model.load_state_dict(sd)  # strict, as train.py
    cfg = dict(TRAIN_PY)
    cfg.update({k: v for k, v in ckpt.get("config", {}).items() if k in TRAIN_PY})
    iter_num = ckpt["iter_num"]
    opt = model.configure_optimizers(cfg["weight_decay"], cfg["learning_rate"],
                                     (cfg["beta1"], cfg["beta2"]))
    opt.load_state_dict(ckpt["optimizer"])
    oracle.write(before, {"logits": logits_of(model, tokens)})
    model = model.float()
    lr = get_lr(iter_num, cfg) if cfg["decay_lr"] else cfg["learning_rate"]
    for g in opt.param_groups:
        g["lr"] = lr
    x = torch.tensor([tokens])
    logits = model(x[:, :-1])
    loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), x[:, 1:].reshape(-1))
    loss.backward()
    if cfg["grad_clip"] != 0.0:
        torch.nn.utils.clip_grad_norm_(model.parameters(), cfg["grad_clip"])
    opt.step()
    torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(),
                "model_args": ckpt["model_args"], "iter_num": iter_num + 1,
                "best_val_loss": ckpt["best_val_loss"], "config": ckpt.get("config", {})}, out_path)
    oracle.write(after, {"logits": logits_of(model, tokens)})


def hf_check(argv):
    directory, out = argv[:2]
    tokens = [int(t) for t in argv[2:]]
    with open(os.path.join(directory, "config.json")) as f:
        cj = json.load(f)
    c = GPT2Config(**{k: cj[k] for k in ["vocab_size", "n_positions", "n_embd", "n_layer", "n_head",
                                         "n_inner", "activation_function", "layer_norm_epsilon",
                                         "tie_word_embeddings"]})
    model = GPT2LMHeadModel(c)
    sd, _ = read_safetensors(os.path.join(directory, "model.safetensors"))
    if not any(k.startswith("transformer.") for k in sd):  # from_pretrained: the base model's names
        sd = {"transformer." + k: v for k, v in sd.items()}
    if c.tie_word_embeddings:
        sd["lm_head.weight"] = sd["transformer.wte.weight"]
    missing, unexpected = model.load_state_dict(sd, strict=False)
    missing = [k for k in missing if not k.endswith((".attn.bias", ".attn.masked_bias"))]
    if missing or unexpected:
        sys.exit("gpt_ref hf-check: missing %s, unexpected %s" % (missing, unexpected))
    oracle.write(out, {"logits": logits_of(model, tokens)})


def nan(argv):
    src, dst, name = argv
    sd, meta = read_safetensors(src)
    sd[name].view(-1)[3] = float("nan")
    write_safetensors(dst, sd, meta)


def gpt2_small(seed):
    torch.manual_seed(seed)
    c = GPT2Config(vocab_size=50257, n_positions=1024, n_layer=12, n_head=12, n_embd=768)
    model = GPT2LMHeadModel(c)
    random_weights(model)
    return model, c


# ---- character-level models (nanoGPT's data/shakespeare_char) ----
def prepare_char(data, meta_path):
    """data/shakespeare_char/prepare.py's vocabulary and meta.pkl, as it writes them."""
    import pickle
    chars = sorted(list(set(data)))
    vocab_size = len(chars)
    stoi = {ch: i for i, ch in enumerate(chars)}
    itos = {i: ch for i, ch in enumerate(chars)}
    os.makedirs(os.path.dirname(os.path.abspath(meta_path)), exist_ok=True)
    with open(meta_path, "wb") as f:
        pickle.dump({"vocab_size": vocab_size, "itos": itos, "stoi": stoi}, f)
    return stoi, itos


def char_ckpt(path, c, seed, dataset, compiled=True):
    """train.py's ckpt.pt of a random character-level GPT (bias=False, train.py's default)."""
    torch.manual_seed(seed)
    model = GPT(c)
    random_weights(model)
    sd = model.state_dict()
    if compiled:
        sd = {"_orig_mod." + k: v for k, v in sd.items()}
    model_args = dict(n_layer=c.n_layer, n_head=c.n_head, n_embd=c.n_embd, block_size=c.block_size,
                      bias=c.bias, vocab_size=c.vocab_size, dropout=c.dropout)
    opt = model.configure_optimizers(0.1, 1e-3, (0.9, 0.99))
    torch.save({"model": sd, "optimizer": opt.state_dict(), "model_args": model_args,
                "iter_num": 5000, "best_val_loss": torch.tensor(1.47),
                "config": {"dataset": dataset, "batch_size": 64, "block_size": c.block_size}}, path)
    return model


def greedy(model, ids, n, near_tie=1e-3):
    """Greedy decoding in float64 from ids (a sliding window past block_size is not needed
    here): the n next ids, or fewer up to the first step whose two best logits are closer than
    near_tie (where float32 may legitimately choose the other). -> (ids, complete)."""
    model = model.double()
    ids, out = list(ids), []
    with torch.no_grad():
        for _ in range(n):
            logits = model(torch.tensor([ids]))[0, -1]
            top2 = torch.topk(logits, 2)
            if float(top2.values[0] - top2.values[1]) < near_tie:
                return out, False
            out.append(int(top2.indices[0]))
            ids.append(out[-1])
    return out, True


def char_ckpt_cmd(argv):
    """char-ckpt <text file> <nanoGPT root> <dataset> <n_layer> <n_head> <n_embd> <block_size>
    <seed> <ids.tfx> <logits.tfx>: root/data/<dataset>/meta.pkl made from the text as prepare.py
    makes it, root/out-<dataset>/ckpt.pt of a random GPT over its characters, the text's ids
    ([stoi[c] for c in text]) and the float64 logits of the first block_size of them."""
    text_path, root, dataset = argv[:3]
    n_layer, n_head, n_embd, block, seed = (int(a) for a in argv[3:8])
    ids_out, logits_out = argv[8:10]
    with open(text_path, encoding="utf-8") as f:
        data = f.read()
    stoi, itos = prepare_char(data, os.path.join(root, "data", dataset, "meta.pkl"))
    c = GPTConfig(block_size=block, vocab_size=len(stoi), n_layer=n_layer, n_head=n_head,
                  n_embd=n_embd, bias=False)
    out_dir = os.path.join(root, "out-" + dataset)
    os.makedirs(out_dir, exist_ok=True)
    model = char_ckpt(os.path.join(out_dir, "ckpt.pt"), c, seed, dataset)
    ids = [stoi[ch] for ch in data]
    oracle.write(ids_out, {"ids": ids})
    oracle.write(logits_out, {"logits": logits_of(model, ids[:block])})


def run(argv):
    cmd, argv = argv[0], argv[1:]
    {"nanogpt-ckpt": nanogpt_ckpt, "hf": hf, "nanogpt-resume": nanogpt_resume,
     "hf-check": hf_check, "nan": nan, "char-ckpt": char_ckpt_cmd}[cmd](argv)


if __name__ == "__main__":
    run(sys.argv[1:])
