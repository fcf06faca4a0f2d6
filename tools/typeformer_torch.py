#!/usr/bin/python3
"""typeformer <-> PyTorch, nanoGPT and Hugging Face GPT-2, with Debian's python3-torch alone.

A torch.nn.Module for each typeformer architecture, read from and written to typeformer's
safetensors files, so training can continue with PyTorch's own tools (DistributedDataParallel
included) and come back; and converters between typeformer's files and the files of nanoGPT
(ckpt.pt, state-dict names) and Hugging Face GPT-2 (model.safetensors + config.json). The
safetensors reader/writer is struct + json (Debian has no python3-safetensors).

    import typeformer_torch as tt
    m = tt.load("w.safetensors")   # DTransformer / ETransformer / EDTransformer
    logits = m(x)                  # x: (B, T) int64 -> (B, T, N_V); EDTransformer: m(z, x)
    ...train...
    tt.save(m, "w2.safetensors")   # typeformer's names, shapes, order and signature; tf::load reads it

A file written by typeformer (tf::save, checkpoints) or by save() carries its model's signature
in its metadata (every dimension and variant: io/signature.hpp): load() builds the module from
it, and an argument that disagrees with it is an error naming the field. A file written before
signatures existed says nothing about the GELU form or eps: pass gelu= and eps= (and l_max= for
sinusoidal positions); the rest comes from the tensors' names and shapes.

Command line (run with /usr/bin/python3):
  typeformer_torch.py from-nanogpt ckpt.pt gpt.safetensors
      nanoGPT's checkpoint (train.py's out/ckpt.pt; torch.compile's `_orig_mod.` names, bias or
      not, tied or not) as safetensors in nanoGPT's names, model_args kept in the metadata:
      tf::io::import_nanogpt reads it (and checks H, L, ... against model_args).
  typeformer_torch.py to-nanogpt w.safetensors ckpt.pt [--mask-buffers | --no-mask-buffers]
      a typeformer DTransformer as a nanoGPT checkpoint that train.py resumes from
      (init_from='resume'; fresh AdamW moments) and model.py's GPT loads. model.py registers
      causal-mask buffers (attn.bias) on torch < 2.0 only; they are written when this torch is
      older than 2.0, unless the flag says otherwise (for nanoGPT running on another torch).
  typeformer_torch.py to-hf w.safetensors out_dir
      a typeformer DTransformer as Hugging Face GPT-2: out_dir/model.safetensors + config.json
      (GPT2LMHeadModel.from_pretrained(out_dir) loads it).
  typeformer_torch.py check in.safetensors out.safetensors
      reads, builds the module, writes it back (the round trip).
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
_ARCHS = ("DTransformer", "ETransformer", "EDTransformer")


# ---- safetensors ----

def read_safetensors(path):
    """-> (OrderedDict name -> torch tensor in the file's order, metadata dict)."""
    with open(path, "rb") as f:
        blob = f.read()
    if blob[:4] == b"PK\x03\x04":
        raise ValueError("%s is a torch.save checkpoint (zip), not safetensors: "
                         "convert it with `typeformer_torch.py from-nanogpt`" % path)
    (n,) = struct.unpack("<Q", blob[:8])
    if n > len(blob) - 8:
        raise ValueError("%s: header length %d does not fit the file" % (path, n))
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
    """tensors: name -> tensor, written in the given order as F32 (or F64); metadata: str -> str.
    Tensors that share memory (a tied lm_head) are written as copies. Atomic, like tf::save."""
    meta = OrderedDict([("format", "pt")])
    meta.update(metadata or {})
    header = OrderedDict([("__metadata__", meta)])
    blobs, offset = [], 0
    for name, t in tensors.items():
        a = t.detach().cpu().to(torch.float32 if dtype == "F32" else torch.float64).contiguous().numpy()
        b = a.astype(_NP[dtype]).tobytes()
        header[name] = {"dtype": dtype, "shape": list(a.shape), "data_offsets": [offset, offset + len(b)]}
        blobs.append(b)
        offset += len(b)
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * (-len(h) % 8)
    tmp = "%s.tmp.%d" % (path, os.getpid())
    with open(tmp, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h)
        for b in blobs:
            f.write(b)
    os.replace(tmp, path)


# ---- the signature (io/signature.hpp): typeformer.* metadata entries ----

_SIZES = ("N_V", "l_max", "L", "L_enc", "L_dec", "H", "d_e", "d_mlp", "d_attn", "d_mid", "d_f")


def _applies(key, arch):
    if key == "L":
        return arch != "EDTransformer"
    if key in ("L_enc", "L_dec"):
        return arch == "EDTransformer"
    if key == "d_f":
        return arch == "ETransformer"
    return True


def read_signature(meta):
    """The file's signature as a dict (sizes as int, eps as float, tied as bool), or None."""
    if "typeformer.architecture" not in meta:
        if "typeformer.model" in meta:  # a checkpoint of before the entries: one line
            line = meta["typeformer.model"]
            arch, rest = line.split("<", 1)
            scalar, rest = rest.split("> ", 1)
            kv = dict(item.split("=", 1) for item in rest.split())
            sig = {"architecture": arch, "scalar": scalar}
            for k in _SIZES:
                if _applies(k, arch):
                    sig[k] = int(kv[k])
            sig["norm"] = ("layer_norm", "rms_norm")[int(kv["norm"])]
            sig["positional"] = ("learned", "sinusoidal")[int(kv["positional"])]
            sig["tied"] = kv["tied"] == "1"
            if arch != "EDTransformer":
                sig["gelu"] = ("erf", "tanh")[int(kv["gelu"])]
            sig["eps"] = float(kv["eps"])
            return sig
        return None
    arch = meta["typeformer.architecture"]
    if arch not in _ARCHS:
        raise ValueError("typeformer.architecture is %r" % arch)
    sig = {"architecture": arch, "scalar": meta["typeformer.scalar"]}
    for k in _SIZES:
        if _applies(k, arch):
            sig[k] = int(meta["typeformer." + k])
    sig["norm"] = meta["typeformer.norm"]
    sig["positional"] = meta["typeformer.positional"]
    sig["tied"] = meta["typeformer.tied"] == "true"
    if arch != "EDTransformer":
        sig["gelu"] = meta["typeformer.gelu"]
    sig["eps"] = float(meta["typeformer.eps"])
    return sig


def signature_metadata(sig):
    """The typeformer.* entries of a signature dict, as tf::save writes them."""
    md = OrderedDict()
    md["typeformer.architecture"] = sig["architecture"]
    md["typeformer.scalar"] = sig["scalar"]
    for k in _SIZES:
        if _applies(k, sig["architecture"]):
            md["typeformer." + k] = str(sig[k])
    md["typeformer.norm"] = sig["norm"]
    md["typeformer.positional"] = sig["positional"]
    md["typeformer.tied"] = "true" if sig["tied"] else "false"
    if sig["architecture"] != "EDTransformer":
        md["typeformer.gelu"] = sig["gelu"]
    md["typeformer.eps"] = repr(float(sig["eps"]))
    return md


# ---- the module ----

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
        if gelu not in ("erf", "tanh"):
            raise ValueError("gelu is %r: 'erf' or 'tanh'" % (gelu,))
        self.gelu_name = gelu
        self.gelu_form = "tanh" if gelu == "tanh" else "none"
        self.eps = float(eps)
        if self.sinusoidal and l_max is None:
            raise ValueError("the file has no W_p (sinusoidal positions): pass l_max")
        self.l_max = int(l_max) if self.sinusoidal else tensors["W_p"].shape[1]
        first = "encoder.layers.0.attn.W_q" if self.arch == "EDTransformer" else "layers.0.attn.W_q"
        self.H = tensors[first].shape[0]

    def signature(self, scalar="f32"):
        """The model's signature (what save() writes in the metadata)."""
        p = self.p
        ed = self.arch == "EDTransformer"
        first = "encoder.layers.0." if ed else "layers.0."
        sig = {"architecture": self.arch, "scalar": scalar,
               "N_V": p("W_e").shape[1], "l_max": self.l_max,
               "H": p(first + "attn.W_q").shape[0], "d_e": p("W_e").shape[0],
               "d_mlp": p(first + "mlp.W_1").shape[0], "d_attn": p(first + "attn.W_q").shape[1],
               "d_mid": p(first + "attn.W_v").shape[1],
               "norm": "rms_norm" if self.rms else "layer_norm",
               "positional": "sinusoidal" if self.sinusoidal else "learned",
               "tied": self.tied, "eps": self.eps}
        if ed:
            sig["L_enc"], sig["L_dec"] = self._count("encoder.layers"), self._count("decoder.layers")
        else:
            sig["L"] = self._count("layers")
            sig["gelu"] = self.gelu_name
        if self.arch == "ETransformer":
            sig["d_f"] = p("W_f").shape[0]
        return sig

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


def _unwrap(module):
    return module.module if hasattr(module, "module") else module  # DistributedDataParallel


def load(path, gelu=None, eps=None, l_max=None):
    """A TypeformerModule from a typeformer weights file (or checkpoint: its model.* tensors).
    The file's signature gives gelu, eps and l_max; an argument that disagrees is an error. A
    file without one needs gelu= and eps= (and l_max= when it has no W_p)."""
    tensors, meta = read_safetensors(path)
    if meta.get("typeformer.checkpoint") == "1":  # a training checkpoint: its model
        tensors = OrderedDict((n[len("model."):], t) for n, t in tensors.items() if n.startswith("model."))
    if "model_args" in meta or any(n.endswith("c_attn.weight") for n in tensors):
        raise ValueError("%s is a nanoGPT or Hugging Face GPT-2 file, not a typeformer one: "
                         "import it with tf::io::import_nanogpt / import_hf_gpt2" % path)
    sig = read_signature(meta)
    if sig is not None:
        for name, arg, have in (("gelu", gelu, sig.get("gelu", "erf")), ("eps", eps, sig["eps"]),
                                ("l_max", l_max, sig["l_max"])):
            if arg is not None and arg != have:
                raise ValueError("%s: %s: file %r, argument %r (the file records its model's "
                                 "signature; leave the argument out)" % (path, name, have, arg))
        gelu, eps, l_max = sig.get("gelu", "erf"), sig["eps"], sig["l_max"]
    elif gelu is None or eps is None:
        raise ValueError("%s records no signature (written before typeformer's files carried "
                         "one), so its GELU form and eps are unknown: pass gelu= ('erf' or "
                         "'tanh') and eps=, as in the model's config" % path)
    for n, t in tensors.items():
        if t.dtype != torch.float32:
            tensors[n] = t.to(torch.float32)
    m = TypeformerModule(tensors, gelu=gelu, eps=eps, l_max=l_max)
    if sig is not None:  # the tensors must be the signature's model
        mine = m.signature(sig["scalar"])
        for k, v in sig.items():
            if mine.get(k) != v:
                raise ValueError("%s: %s: signature %r, tensors %r" % (path, k, v, mine.get(k)))
    return m


def save(module, path, dtype="F32"):
    """typeformer's file: names, shapes, order and the signature."""
    m = _unwrap(module)
    write_safetensors(path, m.typeformer_state(),
                      metadata=signature_metadata(m.signature("f32" if dtype == "F32" else "f64")),
                      dtype=dtype)


# ---- nanoGPT ----

def _torch_load(path):
    """torch.load of a checkpoint, by the weights-only unpickler where it can read one (torch 2);
    torch 1.13's cannot read the Python floats nanoGPT's checkpoints hold, and older ones have
    none: then a full unpickling, which runs what the file says (convert files you trust)."""
    import pickle
    try:
        return torch.load(path, map_location="cpu", weights_only=True)
    except (TypeError, pickle.UnpicklingError, RuntimeError):
        sys.stderr.write("typeformer_torch.py: torch %s's weights-only loader cannot read %s; "
                         "unpickling it fully (only for checkpoints you trust)\n"
                         % (torch.__version__, path))
        return torch.load(path, map_location="cpu")


def from_nanogpt(ckpt_path, out_path):
    """nanoGPT's ckpt.pt -> safetensors in nanoGPT's names with model_args in the metadata."""
    ckpt = _torch_load(ckpt_path)
    if not isinstance(ckpt, dict) or "model" not in ckpt or "model_args" not in ckpt:
        raise ValueError("%s is not a nanoGPT checkpoint (train.py saves a dict with 'model' and "
                         "'model_args')" % ckpt_path)
    sd = OrderedDict()
    for k, v in ckpt["model"].items():
        k = k[len("_orig_mod."):] if k.startswith("_orig_mod.") else k  # torch.compile's prefix
        if k.endswith(".attn.bias"):  # the causal mask buffer (nanoGPT on torch < 2.0)
            continue
        sd[k] = v
    wte, head = sd.get("transformer.wte.weight"), sd.get("lm_head.weight")
    if wte is not None and head is not None and torch.equal(wte, head):
        del sd["lm_head.weight"]  # tied: the importer reads W_u from wte
    args = {k: (v if isinstance(v, (int, float, bool, str)) or v is None else str(v))
            for k, v in ckpt["model_args"].items()}
    meta = OrderedDict([("model_args", json.dumps(args, sort_keys=True))])
    if "iter_num" in ckpt:
        meta["nanogpt.iter_num"] = str(int(ckpt["iter_num"]))
    write_safetensors(out_path, sd, metadata=meta)
    return args


def _gpt_module(src):
    m = _unwrap(src) if isinstance(src, nn.Module) else load(src)
    if m.arch != "DTransformer":
        raise ValueError("GPT layouts hold a DTransformer; this is an %s" % m.arch)
    sig = m.signature()
    problems = []
    if m.rms:
        problems.append("norm = rms_norm (GPT-2 has layer norm)")
    if m.sinusoidal:
        problems.append("sinusoidal positions (GPT-2 learns wpe)")
    if not (sig["d_attn"] == sig["d_mid"] == sig["d_e"] // sig["H"] and sig["H"] * sig["d_attn"] == sig["d_e"]):
        problems.append("d_attn = %d, d_mid = %d, d_e / H = %g (GPT-2 has d_attn = d_mid = d_e / H)"
                        % (sig["d_attn"], sig["d_mid"], sig["d_e"] / sig["H"]))
    if problems:
        raise ValueError("this model has no GPT-2 form: " + "; ".join(problems))
    return m, sig


def _gpt_state(m, sig):
    """GPT-2's tensors (nanoGPT's nn.Linear orientation [out, in]; no prefix)."""
    p = lambda n: m.p(n).detach().to(torch.float32)  # noqa: E731
    d_e = sig["d_e"]
    sd = OrderedDict()
    sd["wte.weight"] = p("W_e").t().contiguous()
    sd["wpe.weight"] = p("W_p").t().contiguous()
    for l in range(sig["L"]):
        q, h = "layers.%d." % l, "h.%d." % l
        sd[h + "ln_1.weight"], sd[h + "ln_1.bias"] = p(q + "ln1.gamma"), p(q + "ln1.beta")
        sd[h + "attn.c_attn.weight"] = torch.cat([p(q + "attn.W_" + x).reshape(d_e, d_e) for x in "qkv"])
        sd[h + "attn.c_attn.bias"] = torch.cat([p(q + "attn.b_" + x).reshape(d_e) for x in "qkv"])
        sd[h + "attn.c_proj.weight"], sd[h + "attn.c_proj.bias"] = p(q + "attn.W_o"), p(q + "attn.b_o")
        sd[h + "ln_2.weight"], sd[h + "ln_2.bias"] = p(q + "ln2.gamma"), p(q + "ln2.beta")
        sd[h + "mlp.c_fc.weight"], sd[h + "mlp.c_fc.bias"] = p(q + "mlp.W_1"), p(q + "mlp.b_1")
        sd[h + "mlp.c_proj.weight"], sd[h + "mlp.c_proj.bias"] = p(q + "mlp.W_2"), p(q + "mlp.b_2")
    sd["ln_f.weight"], sd["ln_f.bias"] = p("ln_f.gamma"), p("ln_f.beta")
    if not sig["tied"]:
        sd["lm_head.weight"] = p("W_u")
    return sd


def to_nanogpt(src, ckpt_path, mask_buffers=None):
    """A typeformer DTransformer (file or module) as nanoGPT's ckpt.pt: model.py's state-dict
    names (lm_head tied to wte), model_args, iter_num 0 and an AdamW state of nanoGPT's two
    parameter groups with fresh moments, so train.py resumes from it (init_from='resume').
    mask_buffers: the causal-mask buffers `attn.bias` that model.py registers on torch < 2.0
    (no flash attention), which its strict load_state_dict then expects; default: this torch's
    case."""
    if mask_buffers is None:
        mask_buffers = int(torch.__version__.split(".")[0]) < 2
    m, sig = _gpt_module(src)
    problems = []
    if sig["gelu"] != "erf":
        problems.append("gelu = tanh (nanoGPT's MLP uses nn.GELU(), the erf form)")
    if sig["eps"] != 1e-5:
        problems.append("eps = %r (nanoGPT's LayerNorm uses 1e-5)" % sig["eps"])
    if sig["d_mlp"] != 4 * sig["d_e"]:
        problems.append("d_mlp = %d (nanoGPT's MLP is 4 * n_embd = %d)" % (sig["d_mlp"], 4 * sig["d_e"]))
    if not sig["tied"]:
        problems.append("an untied W_u (nanoGPT ties lm_head to wte): use to-hf")
    if problems:
        raise ValueError("this model has no nanoGPT form: " + "; ".join(problems))
    sd = OrderedDict()
    for k, v in _gpt_state(m, sig).items():
        sd["transformer." + k] = v
        if mask_buffers and k.endswith("attn.c_attn.weight"):  # nanoGPT's buffer on torch < 2.0
            T = sig["l_max"]
            sd["transformer." + k.replace("c_attn.weight", "bias")] = \
                torch.tril(torch.ones(T, T)).view(1, 1, T, T)
    sd["lm_head.weight"] = sd["transformer.wte.weight"]  # one tensor, as in model.py
    n_decay = 2 + 4 * sig["L"]  # configure_optimizers: parameters of dim >= 2 (wte, wpe, 4 per block)
    n_nodecay = 8 * sig["L"] + 2  # the biases and layer-norm gains and betas
    groups = [{"params": list(range(n_decay)), "weight_decay": 0.1},
              {"params": list(range(n_decay, n_decay + n_nodecay)), "weight_decay": 0.0}]
    for g in groups:
        g.update({"lr": 6e-4, "betas": (0.9, 0.95), "eps": 1e-8, "amsgrad": False,
                  "maximize": False, "foreach": None, "capturable": False})
    model_args = {"n_layer": sig["L"], "n_head": sig["H"], "n_embd": sig["d_e"],
                  "block_size": sig["l_max"], "bias": True, "vocab_size": sig["N_V"], "dropout": 0.0}
    torch.save({"model": sd, "optimizer": {"state": {}, "param_groups": groups},
                "model_args": model_args, "iter_num": 0, "best_val_loss": 1e9,
                "config": dict(model_args)}, ckpt_path)
    return model_args


# ---- Hugging Face GPT-2 ----

def to_hf(src, out_dir):
    """A typeformer DTransformer (file or module) as Hugging Face GPT-2: out_dir/model.safetensors
    (Conv1D [in, out]; the hub's names, or GPT2LMHeadModel's with lm_head when untied) and
    out_dir/config.json."""
    m, sig = _gpt_module(src)
    os.makedirs(out_dir, exist_ok=True)
    sd = OrderedDict()
    prefix = "" if sig["tied"] else "transformer."
    for k, v in _gpt_state(m, sig).items():
        if k.endswith(("c_attn.weight", "c_proj.weight", "c_fc.weight")):
            v = v.t().contiguous()  # Conv1D stores [in, out]
        sd[k if k == "lm_head.weight" else prefix + k] = v
    write_safetensors(os.path.join(out_dir, "model.safetensors"), sd)
    N_V = sig["N_V"]
    config = OrderedDict([
        ("architectures", ["GPT2LMHeadModel"]), ("model_type", "gpt2"),
        ("vocab_size", N_V), ("n_positions", sig["l_max"]), ("n_ctx", sig["l_max"]),
        ("n_embd", sig["d_e"]), ("n_layer", sig["L"]), ("n_head", sig["H"]),
        ("n_inner", sig["d_mlp"]),
        ("activation_function", "gelu_new" if sig["gelu"] == "tanh" else "gelu"),
        ("layer_norm_epsilon", sig["eps"]), ("tie_word_embeddings", sig["tied"]),
        ("resid_pdrop", 0.0), ("embd_pdrop", 0.0), ("attn_pdrop", 0.0),
        ("scale_attn_weights", True), ("scale_attn_by_inverse_layer_idx", False),
        ("reorder_and_upcast_attn", False),
        ("bos_token_id", N_V - 1 if N_V == 50257 else N_V - 2), ("eos_token_id", N_V - 1),
    ])
    with open(os.path.join(out_dir, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
    return config


def main(argv):
    if len(argv) == 3 and argv[0] == "check":
        save(load(argv[1]), argv[2])
    elif len(argv) == 3 and argv[0] == "from-nanogpt":
        args = from_nanogpt(argv[1], argv[2])
        print("%s: nanoGPT %s" % (argv[2], json.dumps(args, sort_keys=True)))
    elif len(argv) in (3, 4) and argv[0] == "to-nanogpt" and \
            argv[3:] in ([], ["--mask-buffers"], ["--no-mask-buffers"]):
        args = to_nanogpt(argv[1], argv[2], mask_buffers={"--mask-buffers": True,
                                                          "--no-mask-buffers": False}.get(
                                                              (argv[3:] or [None])[0]))
        print("%s: nanoGPT %s" % (argv[2], json.dumps(args, sort_keys=True)))
    elif len(argv) == 3 and argv[0] == "to-hf":
        to_hf(argv[1], argv[2])
        print("%s: model.safetensors, config.json" % argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except (ValueError, KeyError, OSError) as e:
        sys.exit("typeformer_torch.py: %s" % e)
