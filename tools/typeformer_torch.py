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
  typeformer_torch.py from-nanogpt ckpt.pt gpt.safetensors [--meta meta.pkl]
      nanoGPT's checkpoint (train.py's out/ckpt.pt; torch.compile's `_orig_mod.` names, bias or
      not, tied or not) as safetensors in nanoGPT's names, model_args kept in the metadata:
      tf::io::import_nanogpt reads it (and checks H, L, ... against model_args). A character
      model's vocabulary (meta.pkl's itos; by default found where sample.py finds it,
      data/<dataset>/meta.pkl) is kept as "nanogpt.vocabulary": typeformer-generate --nanogpt
      encodes and prints with it.
  typeformer_torch.py from-nanogpt ckpt.pt model.ckpt --training [--tokenizer-from tf.ckpt]
      the same checkpoint as typeformer's training checkpoint: the model in typeformer's names,
      AdamW's moments and step from the optimizer state, iter_num as the step count, train.py's
      options (lr, schedule, betas, eps, weight decay, clipping, batch); the data position starts
      afresh (nanoGPT samples random batches). typeformer-train --resume continues it when it is
      one of its byte presets, or with the tokenizer of --tokenizer-from.
  typeformer_torch.py to-nanogpt w.safetensors|model.ckpt ckpt.pt [--mask-buffers | --no-mask-buffers]
      a typeformer DTransformer as a nanoGPT checkpoint that train.py resumes from
      (init_from='resume') and model.py's GPT loads; from a training checkpoint with its AdamW
      moments, step and hyperparameters (and the train.py flags of its schedule are printed),
      else with fresh moments. model.py registers causal-mask buffers (attn.bias) on torch < 2.0
      only; they are written when this torch is older than 2.0, unless the flag says otherwise
      (for nanoGPT running on another torch).
  typeformer_torch.py to-hf w.safetensors out_dir
      a typeformer DTransformer as Hugging Face GPT-2: out_dir/model.safetensors + config.json
      (GPT2LMHeadModel.from_pretrained(out_dir) loads it).
  typeformer_torch.py check in.safetensors out.safetensors
      reads, builds the module, writes it back (the round trip).
"""
import argparse
import base64
import json
import math
import os
import pickle
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
    if meta.get("typeformer.trains"):
        raise ValueError("%s is the checkpoint of a partial training mode (it trains %s): it "
                         "holds the trained part, not the model, whose frozen base has weights "
                         "of their own; tf::save the model with the part applied, and convert "
                         "that" % (path, meta["typeformer.trains"]))
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
    try:
        return torch.load(path, map_location="cpu", weights_only=True)
    except (TypeError, pickle.UnpicklingError, RuntimeError):
        sys.stderr.write("typeformer_torch.py: torch %s's weights-only loader cannot read %s; "
                         "unpickling it fully (only for checkpoints you trust)\n"
                         % (torch.__version__, path))
        return torch.load(path, map_location="cpu")


# train.py's defaults (nanoGPT's globals), for what a checkpoint's `config` leaves out.
_TRAIN_PY = {"learning_rate": 6e-4, "weight_decay": 1e-1, "beta1": 0.9, "beta2": 0.95,
             "grad_clip": 1.0, "decay_lr": True, "warmup_iters": 2000, "lr_decay_iters": 600000,
             "min_lr": 6e-5, "batch_size": 12, "gradient_accumulation_steps": 40}
# vocab_size of the models whose vocabulary is no meta.pkl: GPT-2's (and nanoGPT's padding of
# it), typeformer's byte tokens
_NO_META = (50257, 50304, 259)
# typeformer-train's byte-token presets (tools/presets.hpp) by (l_max, L, H, d_e, d_mlp)
_TRAIN_PRESETS = {(32, 2, 2, 32, 128): "tiny", (128, 4, 4, 128, 512): "small",
                  (256, 6, 6, 384, 1536): "baby", (32, 2, 6, 192, 768): "f405"}


class _PlainUnpickler(pickle.Unpickler):
    """meta.pkl is a dict of ints and strings: a pickle that names any class is no meta.pkl (and
    loading the class could run code), so none is loaded."""

    def find_class(self, module, name):
        raise pickle.UnpicklingError("it refers to %s.%s, and nanoGPT's meta.pkl holds only a "
                                     "dict of characters and ints" % (module, name))


def read_meta(path):
    """nanoGPT's meta.pkl of a character dataset (data/shakespeare_char/prepare.py: vocab_size,
    itos: id -> character, stoi: character -> id) -> the characters of ids 0 .. vocab_size - 1."""
    try:
        with open(path, "rb") as f:
            meta = _PlainUnpickler(f).load()
    except OSError:
        raise
    except Exception as e:  # noqa: BLE001 (a broken pickle raises anything)
        raise ValueError("%s is not nanoGPT's meta.pkl: %s" % (path, e))
    if not isinstance(meta, dict) or not isinstance(meta.get("itos"), dict):
        raise ValueError("%s is not the meta.pkl of a nanoGPT character dataset (a dict whose "
                         "'itos' maps ids to characters, as data/shakespeare_char/prepare.py "
                         "writes it)" % path)
    itos = meta["itos"]
    n = meta.get("vocab_size", len(itos))
    if not isinstance(n, int) or set(itos) != set(range(n)):
        raise ValueError("%s: itos's ids are not 0 .. vocab_size - 1 = %r" % (path, n))
    chars = [itos[i] for i in range(n)]
    for i, c in enumerate(chars):
        if not isinstance(c, str) or len(c) != 1:
            raise ValueError("%s: itos[%d] is %r, not one character (nanoGPT's character "
                             "vocabulary maps each id to one character)" % (path, i, c))
        try:
            c.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("%s: itos[%d] is %r, which UTF-8 cannot hold" % (path, i, c))
    if len(set(chars)) != n:
        raise ValueError("%s: itos names a character twice" % path)
    stoi = meta.get("stoi")
    if stoi is not None and (not isinstance(stoi, dict) or len(stoi) != n or
                             any(stoi.get(c) != i for i, c in enumerate(chars))):
        raise ValueError("%s: stoi is not the inverse of itos" % path)
    return chars


def _find_meta(ckpt_path, ckpt):
    """Where nanoGPT's sample.py finds the vocabulary: data/<config['dataset']>/meta.pkl, from the
    working directory, else from the folder above the checkpoint's out_dir (nanoGPT's own)."""
    dataset = (ckpt.get("config") or {}).get("dataset")
    if not isinstance(dataset, str) or not dataset:
        return None, []
    rel = os.path.join("data", dataset, "meta.pkl")
    tried = [rel, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(ckpt_path))), rel)]
    for p in tried:
        if os.path.isfile(p):
            return p, tried
    return None, tried


def _nanogpt_state(ckpt_path, ckpt):
    """train.py's checkpoint -> (GPT-2's tensors without `transformer.`, model_args, bias, tied)."""
    if not isinstance(ckpt, dict) or "model" not in ckpt or "model_args" not in ckpt:
        raise ValueError("%s is not a nanoGPT checkpoint (train.py saves a dict with 'model' and "
                         "'model_args')" % ckpt_path)
    sd = OrderedDict()
    for k, v in ckpt["model"].items():
        k = k[len("_orig_mod."):] if k.startswith("_orig_mod.") else k  # torch.compile's prefix
        if k.endswith(".attn.bias"):  # the causal mask buffer (nanoGPT on torch < 2.0)
            continue
        sd[k[len("transformer."):] if k.startswith("transformer.") else k] = v
    wte, head = sd.get("wte.weight"), sd.get("lm_head.weight")
    tied = head is None or (wte is not None and torch.equal(wte, head))
    if tied:
        sd.pop("lm_head.weight", None)  # the importer reads W_u from wte
    args = {k: (v if isinstance(v, (int, float, bool, str)) or v is None else str(v))
            for k, v in ckpt["model_args"].items()}
    bias = any(k.endswith(".bias") for k in sd)
    return sd, args, bias, tied


def _nanogpt_signature(args, tied, path):
    try:
        N_V, l_max, L, H, d_e = (int(args[k]) for k in
                                 ("vocab_size", "block_size", "n_layer", "n_head", "n_embd"))
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError("%s: model_args lacks %s" % (path, e))
    if H <= 0 or d_e % H:
        raise ValueError("%s: n_embd %d is no multiple of n_head %d" % (path, d_e, H))
    return {"architecture": "DTransformer", "scalar": "f32", "N_V": N_V, "l_max": l_max, "L": L,
            "H": H, "d_e": d_e, "d_mlp": 4 * d_e, "d_attn": d_e // H, "d_mid": d_e // H,
            "norm": "layer_norm", "positional": "learned", "tied": tied, "gelu": "erf",
            "eps": 1e-5}


def _nanogpt_params(L, bias, tied):
    """model.py's GPT.named_parameters() (lm_head, when tied, is wte), without `transformer.`."""
    names = ["wte.weight", "wpe.weight"]
    for l in range(L):
        for part in ("ln_1", "attn.c_attn", "attn.c_proj", "ln_2", "mlp.c_fc", "mlp.c_proj"):
            names += ["h.%d.%s.weight" % (l, part)] + (["h.%d.%s.bias" % (l, part)] if bias else [])
    names += ["ln_f.weight"] + (["ln_f.bias"] if bias else [])
    return names + ([] if tied else ["lm_head.weight"])


def _adamw_groups(L, bias, tied):
    """configure_optimizers' two groups, by name: the tensors of dim >= 2 (decayed), the rest."""
    names = _nanogpt_params(L, bias, tied)
    matrix = lambda n: n.endswith(".weight") and ".ln_" not in n and not n.startswith("ln_f")  # noqa: E731
    return [n for n in names if matrix(n)], [n for n in names if not matrix(n)]


def _from_gpt_state(get, sig, path):
    """typeformer's tensors (names, shapes and file order) from GPT-2's (nanoGPT's [out, in],
    names without `transformer.`); get(name) -> tensor, or None for a bias the model has not
    (nanoGPT's bias=False): zeros, which compute what the bias-free model computes."""
    H, d_e, d_a, d_mlp, N_V = sig["H"], sig["d_e"], sig["d_attn"], sig["d_mlp"], sig["N_V"]

    def g(name, shape, optional=False):
        t = get(name)
        if t is None:
            if optional:
                return torch.zeros(shape)
            raise ValueError("%s has no %s" % (path, name))
        if list(t.shape) != list(shape):
            raise ValueError("%s: %s has shape %s, but model_args make it %s"
                             % (path, name, list(t.shape), list(shape)))
        return t.detach().to(torch.float32)

    out = OrderedDict()
    out["W_e"] = g("wte.weight", [N_V, d_e]).t().contiguous()
    wpe = get("wpe.weight")
    if wpe is None or wpe.dim() != 2 or wpe.shape[0] < sig["l_max"] or wpe.shape[1] != d_e:
        raise ValueError("%s: wpe.weight is %s, the model needs [%d, %d]"
                         % (path, None if wpe is None else list(wpe.shape), sig["l_max"], d_e))
    out["W_p"] = wpe[:sig["l_max"]].detach().to(torch.float32).t().contiguous()
    for l in range(sig["L"]):
        h, q = "h.%d." % l, "layers.%d." % l
        out[q + "ln1.gamma"] = g(h + "ln_1.weight", [d_e])
        out[q + "ln1.beta"] = g(h + "ln_1.bias", [d_e], True)
        w, b = g(h + "attn.c_attn.weight", [3 * d_e, d_e]), g(h + "attn.c_attn.bias", [3 * d_e], True)
        for k, x in enumerate("qkv"):  # head h: the h-th block of d_attn rows, as view(B, T, H, d_attn)
            out[q + "attn.W_" + x] = w[k * d_e:(k + 1) * d_e].reshape(H, d_a, d_e).contiguous()
            out[q + "attn.b_" + x] = b[k * d_e:(k + 1) * d_e].reshape(H, d_a).contiguous()
        out[q + "attn.W_o"] = g(h + "attn.c_proj.weight", [d_e, d_e])
        out[q + "attn.b_o"] = g(h + "attn.c_proj.bias", [d_e], True)
        out[q + "ln2.gamma"] = g(h + "ln_2.weight", [d_e])
        out[q + "ln2.beta"] = g(h + "ln_2.bias", [d_e], True)
        out[q + "mlp.W_1"] = g(h + "mlp.c_fc.weight", [d_mlp, d_e])
        out[q + "mlp.b_1"] = g(h + "mlp.c_fc.bias", [d_mlp], True)
        out[q + "mlp.W_2"] = g(h + "mlp.c_proj.weight", [d_e, d_mlp])
        out[q + "mlp.b_2"] = g(h + "mlp.c_proj.bias", [d_e], True)
    out["ln_f.gamma"] = g("ln_f.weight", [d_e])
    out["ln_f.beta"] = g("ln_f.bias", [d_e], True)
    if not sig["tied"]:
        out["W_u"] = g("lm_head.weight", [N_V, d_e])
    return out


def _number(v):
    return repr(float(v))


def _training_checkpoint(ckpt_path, ckpt, sd, args, bias, tied, chars, tokenizer_from, log):
    """nanoGPT's checkpoint as typeformer's training checkpoint (io/checkpoint.hpp): the model,
    AdamW's moments and step, the options train.py's config gives, the step count; the data
    position starts afresh (train.py samples random batches: there is none to carry)."""
    sig = _nanogpt_signature(args, tied, ckpt_path)
    params = _from_gpt_state(sd.get, sig, ckpt_path)
    decay, nodecay = _adamw_groups(sig["L"], bias, tied)
    m_gpt, v_gpt, adam_step = {}, {}, 0
    opt_sd = ckpt.get("optimizer")
    config = dict(_TRAIN_PY)
    config.update({k: v for k, v in (ckpt.get("config") or {}).items() if k in _TRAIN_PY})
    betas, eps, wd, wd_nodecay = (config["beta1"], config["beta2"]), 1e-8, config["weight_decay"], 0.0
    if opt_sd and opt_sd.get("state"):
        groups = opt_sd.get("param_groups") or []
        sizes = [len(g.get("params", [])) for g in groups]
        if sizes != [len(decay), len(nodecay)]:
            raise ValueError("%s: the optimizer's parameter groups hold %s parameters, but "
                             "configure_optimizers makes [%d, %d] (decayed, not decayed) for this "
                             "model: it is not train.py's AdamW" % (ckpt_path, sizes, len(decay),
                                                                     len(nodecay)))
        for g in groups:
            if g.get("amsgrad") or g.get("maximize"):
                raise ValueError("%s: the optimizer has amsgrad or maximize set: typeformer's "
                                 "AdamW has neither" % ckpt_path)
            if tuple(g["betas"]) != tuple(groups[0]["betas"]) or g["eps"] != groups[0]["eps"]:
                raise ValueError("%s: the two parameter groups have other betas or eps: "
                                 "typeformer's AdamW has one of each" % ckpt_path)
        betas, eps = tuple(groups[0]["betas"]), groups[0]["eps"]
        wd, wd_nodecay = groups[0]["weight_decay"], groups[1]["weight_decay"]
        if wd_nodecay not in (0.0, wd):
            raise ValueError("%s: weight decay %r on the matrices and %r on the gains and "
                             "biases: typeformer decays the latter by the same or not at all"
                             % (ckpt_path, wd, wd_nodecay))
        steps = set()
        for g, names in zip(groups, (decay, nodecay)):
            for index, name in zip(g["params"], names):
                st = opt_sd["state"].get(index)
                if st is None or "exp_avg" not in st or "exp_avg_sq" not in st or "step" not in st:
                    raise ValueError("%s: the optimizer holds no AdamW state (step, exp_avg, "
                                     "exp_avg_sq) for %s" % (ckpt_path, name))
                m_gpt[name], v_gpt[name] = st["exp_avg"], st["exp_avg_sq"]
                steps.add(int(float(st["step"])))
        if len(steps) != 1:
            raise ValueError("%s: the parameters' AdamW steps differ (%s)" % (ckpt_path, sorted(steps)))
        adam_step = steps.pop()
    else:
        log.write("typeformer_torch.py: %s holds no optimizer state: AdamW starts with zero "
                  "moments\n" % ckpt_path)
    zeros = lambda n: torch.zeros_like(params[n])  # noqa: E731
    m = _from_gpt_state(m_gpt.get, sig, ckpt_path) if m_gpt else {n: zeros(n) for n in params}
    v = _from_gpt_state(v_gpt.get, sig, ckpt_path) if v_gpt else {n: zeros(n) for n in params}

    warmup = int(config["warmup_iters"]) if config["decay_lr"] else 0
    decay_steps = max(int(config["lr_decay_iters"]) - warmup, 0) if config["decay_lr"] else 0
    iter_num = int(ckpt.get("iter_num", 0))
    meta = OrderedDict([
        ("typeformer.checkpoint", "1"), ("step", str(iter_num)), ("epoch", "0"), ("next", "0"),
        ("order_a", "1"), ("order_b", "0"), ("started", "0"), ("adam_step", str(adam_step)),
        ("rng", "0,0,0,0"), ("opt.epochs", "1"),
        ("opt.batch_size", str(int(config["batch_size"]) * int(config["gradient_accumulation_steps"]))),
        ("opt.method", "adamw"), ("opt.lr", _number(config["learning_rate"])),
        ("opt.beta1", _number(betas[0])), ("opt.beta2", _number(betas[1])), ("opt.eps", _number(eps)),
        ("opt.weight_decay", _number(wd)), ("opt.decay_gains_and_biases", "1" if wd_nodecay else "0"),
        ("opt.clip_norm", _number(config["grad_clip"])), ("opt.warmup_steps", str(warmup)),
        ("opt.decay_steps", str(decay_steps)),
        ("opt.min_lr", _number(config["min_lr"] if config["decay_lr"] else config["learning_rate"])),
        ("opt.reduction", "2"),  # the mean per token, as F.cross_entropy
        ("opt.p_mask", "0.15"), ("opt.bert_replacement", "0"), ("opt.shuffle", "1"),
        ("opt.seed", "1337"),  # train.py's
        ("tokenizer", ""),
    ])
    preset = _TRAIN_PRESETS.get((sig["l_max"], sig["L"], sig["H"], sig["d_e"], sig["d_mlp"]))
    if tokenizer_from:
        theirs_t, theirs = read_safetensors(tokenizer_from)
        if theirs.get("typeformer.checkpoint") != "1":
            raise ValueError("--tokenizer-from %s is no typeformer training checkpoint" % tokenizer_from)
        other = read_signature(theirs)
        if other != sig:
            raise ValueError("--tokenizer-from %s holds another model (%s) than %s (%s)"
                             % (tokenizer_from, other, ckpt_path, sig))
        for k in ("tokenizer", "typeformer-train.model", "typeformer-train.tokenizer",
                  "typeformer-train.text"):
            if k in theirs:
                meta[k] = theirs[k]
    elif preset and sig["N_V"] == 259:  # typeformer-train's byte tokens: their fixed description
        meta["tokenizer"] = base64.b64encode(b"typeformer-byte 1\n").decode()
        meta["typeformer-train.model"], meta["typeformer-train.tokenizer"] = preset, "byte"
    meta.update(signature_metadata(sig))
    if chars is not None:
        meta["nanogpt.vocabulary"] = json.dumps(chars)
    tensors = OrderedDict()
    for prefix, part in (("model.", params), ("adam_m.", m), ("adam_v.", v)):
        for n in params:
            tensors[prefix + n] = part[n]
    return tensors, meta, adam_step


def from_nanogpt(ckpt_path, out_path, meta_path=None, training=False, tokenizer_from=None,
                 log=None):
    """nanoGPT's ckpt.pt -> safetensors in nanoGPT's names with model_args in the metadata (and
    nanoGPT's character vocabulary, from meta.pkl, as nanogpt.vocabulary); training=True:
    typeformer's training checkpoint instead (typeformer's names, AdamW's moments and step).
    Returns a line that says what was written; notes go to log (stderr)."""
    log = log or sys.stderr
    ckpt = _torch_load(ckpt_path)
    sd, args, bias, tied = _nanogpt_state(ckpt_path, ckpt)
    tried = []
    if meta_path is None:
        meta_path, tried = _find_meta(ckpt_path, ckpt)
    chars = read_meta(meta_path) if meta_path else None
    vocab_size = args.get("vocab_size")
    if chars is not None and len(chars) != vocab_size:
        raise ValueError("%s has %d characters, but the model's vocab_size is %r (model_args): "
                         "it is another dataset's vocabulary" % (meta_path, len(chars), vocab_size))
    if chars is None and vocab_size not in _NO_META:
        log.write("typeformer_torch.py: %s has vocab_size %r and no meta.pkl was found%s: the "
                  "converted file carries no vocabulary (typeformer-generate needs it for a "
                  "character model: give --meta data/<dataset>/meta.pkl)\n"
                  % (ckpt_path, vocab_size, " (looked for %s)" % ", ".join(tried) if tried else ""))
    if training:
        tensors, meta, adam_step = _training_checkpoint(ckpt_path, ckpt, sd, args, bias, tied,
                                                        chars, tokenizer_from, log)
        write_safetensors(out_path, tensors, metadata=meta)
        return ("%s: typeformer training checkpoint of %s at step %s (AdamW step %d)%s"
                % (out_path, describe(read_signature(meta)), meta["step"], adam_step,
                   "" if meta["tokenizer"] else "; no tokenizer (give --tokenizer-from a "
                   "typeformer checkpoint for typeformer-train --resume)"))
    meta = OrderedDict([("model_args", json.dumps(args, sort_keys=True))])
    if "iter_num" in ckpt:
        meta["nanogpt.iter_num"] = str(int(ckpt["iter_num"]))
    if chars is not None:
        meta["nanogpt.vocabulary"] = json.dumps(chars)
    out = OrderedDict(("transformer." + k if k != "lm_head.weight" else k, v) for k, v in sd.items())
    write_safetensors(out_path, out, metadata=meta)
    return "%s: nanoGPT %s%s" % (out_path, json.dumps(args, sort_keys=True),
                                 "; vocabulary: %d characters from %s" % (len(chars), meta_path)
                                 if chars is not None else "")


def describe(sig):
    """A signature as one line, as typeformer's tools print it."""
    return "%s<%s> %s" % (sig["architecture"], sig["scalar"], " ".join(
        "%s=%s" % (k, sig[k]) for k in _SIZES if k in sig))


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


def _gpt_state(get, sig):
    """GPT-2's tensors (nanoGPT's nn.Linear orientation [out, in]; no prefix) from typeformer's:
    get(name) -> tensor (the parameters, or AdamW's moments, which map the same way)."""
    p = lambda n: get(n).detach().to(torch.float32)  # noqa: E731
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


def _training_state(path):
    """A typeformer training checkpoint's AdamW moments (typeformer's names), step count, Adam
    step and options; None for a weights file."""
    if not isinstance(path, str):
        return None
    tensors, meta = read_safetensors(path)
    if meta.get("typeformer.checkpoint") != "1":
        return None
    part = lambda prefix: {n[len(prefix):]: t for n, t in tensors.items() if n.startswith(prefix)}  # noqa: E731
    return part("adam_m."), part("adam_v."), meta


def to_nanogpt(src, ckpt_path, mask_buffers=None):
    """A typeformer DTransformer (weights file, training checkpoint or module) as nanoGPT's
    ckpt.pt: model.py's state-dict names (lm_head tied to wte), model_args, and an AdamW state of
    configure_optimizers' two parameter groups, so train.py resumes from it
    (init_from='resume'). From a training checkpoint: its AdamW moments and step in that state,
    its β1, β2, ε and weight decay in the groups (load_state_dict keeps them), iter_num = its
    step and its schedule, clipping and batch as train.py's config; otherwise fresh moments and
    train.py's defaults. mask_buffers: the causal-mask buffers `attn.bias` that model.py
    registers on torch < 2.0 (no flash attention), which its strict load_state_dict then
    expects; default: this torch's case. Returns (model_args, the train.py flags that continue
    with the checkpoint's options or None)."""
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
    gpt = _gpt_state(m.p, sig)
    sd = OrderedDict()
    for k, v in gpt.items():
        sd["transformer." + k] = v
        if mask_buffers and k.endswith("attn.c_attn.weight"):  # nanoGPT's buffer on torch < 2.0
            T = sig["l_max"]
            sd["transformer." + k.replace("c_attn.weight", "bias")] = \
                torch.tril(torch.ones(T, T)).view(1, 1, T, T)
    sd["lm_head.weight"] = sd["transformer.wte.weight"]  # one tensor, as in model.py
    model_args = {"n_layer": sig["L"], "n_head": sig["H"], "n_embd": sig["d_e"],
                  "block_size": sig["l_max"], "bias": True, "vocab_size": sig["N_V"], "dropout": 0.0}
    decay, nodecay = _adamw_groups(sig["L"], True, True)
    training = _training_state(src)
    state, config, flags, iter_num = {}, dict(model_args), None, 0
    hyper = {"lr": 6e-4, "betas": (0.9, 0.95), "eps": 1e-8, "wd": 0.1, "wd_nodecay": 0.0}
    if training is not None:
        m_tf, v_tf, meta = training
        o = lambda k: float(meta["opt." + k])  # noqa: E731
        iter_num, adam_step = int(meta["step"]), int(meta["adam_step"])
        decays_all = meta.get("opt.decay_gains_and_biases") == "1"
        hyper = {"lr": o("lr"), "betas": (o("beta1"), o("beta2")), "eps": o("eps"),
                 "wd": o("weight_decay"), "wd_nodecay": o("weight_decay") if decays_all else 0.0}
        if adam_step > 0:
            mg, vg = _gpt_state(m_tf.get, sig), _gpt_state(v_tf.get, sig)
            for i, n in enumerate(decay + nodecay):
                state[i] = {"step": torch.tensor(float(adam_step)), "exp_avg": mg[n].clone(),
                            "exp_avg_sq": vg[n].clone()}
        warmup, decay_steps = int(meta["opt.warmup_steps"]), int(meta["opt.decay_steps"])
        scheduled = warmup > 0 or decay_steps > 0
        config.update({
            "learning_rate": hyper["lr"], "weight_decay": hyper["wd"], "beta1": hyper["betas"][0],
            "beta2": hyper["betas"][1], "grad_clip": o("clip_norm"), "decay_lr": scheduled,
            "warmup_iters": warmup,
            # nanoGPT divides by lr_decay_iters - warmup_iters: at least one step of cosine;
            # typeformer's constant tail after a warm-up is min_lr = lr
            "lr_decay_iters": warmup + max(decay_steps, 1),
            "min_lr": o("min_lr") if decay_steps else hyper["lr"],
            "batch_size": int(meta["opt.batch_size"]), "gradient_accumulation_steps": 1})
        flags = " ".join("--%s=%s" % (k, config[k]) for k in (
            "block_size", "batch_size", "gradient_accumulation_steps", "learning_rate", "decay_lr",
            "warmup_iters", "lr_decay_iters", "min_lr", "beta1", "beta2", "weight_decay",
            "grad_clip")) + " --dropout=0.0 --init_from=resume"
    groups = [{"params": list(range(len(decay))), "weight_decay": hyper["wd"]},
              {"params": list(range(len(decay), len(decay) + len(nodecay))),
               "weight_decay": hyper["wd_nodecay"]}]
    for g in groups:
        g.update({"lr": hyper["lr"], "betas": hyper["betas"], "eps": hyper["eps"], "amsgrad": False,
                  "maximize": False, "foreach": None, "capturable": False})
    torch.save({"model": sd, "optimizer": {"state": state, "param_groups": groups},
                "model_args": model_args, "iter_num": iter_num, "best_val_loss": 1e9,
                "config": config}, ckpt_path)
    return model_args, flags


# ---- Hugging Face GPT-2 ----

def to_hf(src, out_dir):
    """A typeformer DTransformer (file or module) as Hugging Face GPT-2: out_dir/model.safetensors
    (Conv1D [in, out]; the hub's names, or GPT2LMHeadModel's with lm_head when untied) and
    out_dir/config.json."""
    m, sig = _gpt_module(src)
    os.makedirs(out_dir, exist_ok=True)
    sd = OrderedDict()
    prefix = "" if sig["tied"] else "transformer."
    for k, v in _gpt_state(m.p, sig).items():
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
    ap = argparse.ArgumentParser(prog="typeformer_torch.py", description=__doc__.split("\n\n")[0],
                                 epilog=__doc__[__doc__.index("Command line"):],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    c = sub.add_parser("check", help="read, build the module, write it back")
    c.add_argument("src"), c.add_argument("dst")
    f = sub.add_parser("from-nanogpt", help="nanoGPT's ckpt.pt -> safetensors (or --training: a "
                       "typeformer training checkpoint)")
    f.add_argument("ckpt"), f.add_argument("out")
    f.add_argument("--meta", help="the dataset's meta.pkl (a character vocabulary); default: "
                   "data/<config['dataset']>/meta.pkl, as sample.py finds it")
    f.add_argument("--training", action="store_true", help="write typeformer's training "
                   "checkpoint: the model, AdamW's moments and step, train.py's options")
    f.add_argument("--tokenizer-from", metavar="CKPT", help="with --training: the tokenizer (and "
                   "typeformer-train's preset) of this typeformer checkpoint of the same model")
    t = sub.add_parser("to-nanogpt", help="a typeformer DTransformer -> nanoGPT's ckpt.pt")
    t.add_argument("src"), t.add_argument("ckpt")
    t.add_argument("--mask-buffers", dest="mask_buffers", action="store_true", default=None)
    t.add_argument("--no-mask-buffers", dest="mask_buffers", action="store_false")
    h = sub.add_parser("to-hf", help="a typeformer DTransformer -> Hugging Face GPT-2")
    h.add_argument("src"), h.add_argument("out_dir")
    a = ap.parse_args(argv)
    if a.command == "check":
        save(load(a.src), a.dst)
    elif a.command == "from-nanogpt":
        if a.tokenizer_from and not a.training:
            ap.error("--tokenizer-from goes with --training")
        print(from_nanogpt(a.ckpt, a.out, a.meta, a.training, a.tokenizer_from))
    elif a.command == "to-nanogpt":
        args, flags = to_nanogpt(a.src, a.ckpt, mask_buffers=a.mask_buffers)
        print("%s: nanoGPT %s" % (a.ckpt, json.dumps(args, sort_keys=True)))
        if flags:
            print("continue with the checkpoint's options: python train.py %s --out_dir=%s"
                  % (flags, os.path.dirname(os.path.abspath(a.ckpt))))
    else:
        to_hf(a.src, a.out_dir)
        print("%s: model.safetensors, config.json" % a.out_dir)


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except (ValueError, KeyError, OSError) as e:
        sys.exit("typeformer_torch.py: %s" % e)
