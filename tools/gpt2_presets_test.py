#!/usr/bin/python3
"""tools.gpt2_presets: typeformer-generate with GPT-2's own tokenizer files (encoder.json,
vocab.bpe) on a model of each GPT-2-vocabulary preset of tools/gpt_presets.hpp, at the preset's
true size, decoded greedily and compared with an independent float64 decoding; and the one-line
refusals of a file whose N_V is no tokenizer's.

- gpt2 (GPT-2 small, Hugging Face): a random 124M-parameter GPT2LMHeadModel of gpt_ref.py
  (written from modeling_gpt2.py), every weight random; PyTorch decodes it in float64.
- nanoGPT gpt2 (N_V 50304, nn.GELU()), gpt2-medium and nanoGPT gpt2-medium: files of the
  preset's every tensor in the layout's names and shapes, whose blocks are zero (left sparse on
  disk: 1.4 GB files cost 200 MB) and whose wte, wpe and ln_f are random. A zero block adds
  nothing to the residual stream (its layer norms' γ and β are 0, so are its biases), so the
  model is ln_f(wte[x_t] + wpe[t]) · wteᵀ, which numpy decodes in float64: the tool still reads,
  checks and runs every layer of the preset, with the preset's tokenizer (padded to 50304 for
  nanoGPT's, whose ids past 50256 print as nothing).
- A file of another N_V with GPT-2's files given, or without them: one line naming the file's
  N_V and the vocabularies there are.

  gpt2_presets_test.py <tools dir> <folder of encoder.json and vocab.bpe> <gpt_ref.py> <work dir>
"""
import json
import os
import shutil
import struct
import sys

import numpy as np
import torch

from tool_check import expect, module, one_line, run
from tool_check import ids as tool_ids

tools, gpt2_dir, gpt_ref_path, work = sys.argv[1:5]
gpt_ref = module("gpt_ref", gpt_ref_path)
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
generate = os.path.join(tools, "typeformer-generate")
vocab = ["--gpt2-vocab", os.path.join(gpt2_dir, "encoder.json"),
         "--gpt2-merges", os.path.join(gpt2_dir, "vocab.bpe")]
greedy = ["--prompt", "Hello, typed world", "--tau", "0", "-n", "6", "--no-stop", "--ids"]


def check_greedy(name, r, next_logits):
    """The tool's greedy ids against float64 decoding: next_logits(ids) -> logits (numpy); equal
    up to the first step whose two best logits are closer than 1e-3 (where float32 may choose
    the other)."""
    expect(name in r.stderr, "the tool did not name the preset %s" % name, r.stderr)
    ids, got = tool_ids(r, "prompt ids"), tool_ids(r)
    expect(len(got) == 6, "6 tokens", r.stderr)
    for step, g in enumerate(got):
        logits = next_logits(ids)
        top = np.argsort(logits)[-2:][::-1]
        if logits[top[0]] - logits[top[1]] < 1e-3:
            print("%s: step %d is a near tie; %d tokens checked" % (name, step, step))
            return
        expect(g == top[0], "%s: step %d gave %d, float64 decoding %d" % (name, step, g, top[0]),
               r.stderr)
        ids.append(int(top[0]))
    print("%s: %d greedy tokens equal" % (name, len(got)))


# ---- GPT-2 small, Hugging Face: every weight random ----
small = os.path.join(work, "gpt2")
os.makedirs(small)
model, c = gpt_ref.gpt2_small(7)
sd = {k[len("transformer."):]: v for k, v in model.state_dict().items()
      if k.startswith("transformer.") and not k.endswith("masked_bias")}
gpt_ref.write_safetensors(os.path.join(small, "model.safetensors"), sd)
del sd
with open(os.path.join(small, "config.json"), "w") as f:
    json.dump({"model_type": "gpt2", "vocab_size": 50257, "n_positions": 1024, "n_ctx": 1024,
               "n_embd": 768, "n_layer": 12, "n_head": 12, "activation_function": "gelu_new",
               "layer_norm_epsilon": 1e-05}, f)
weights = os.path.join(small, "model.safetensors")
r = run(generate, "--hf-gpt2", weights, *vocab, *greedy)
expect(r.stdout.startswith("Hello, typed world"), "the prompt first", r.stdout)
# the preset (from config.json) needs GPT-2's tokenizer files: refused before the weights are read
r2 = run(generate, "--hf-gpt2", weights, ok=False)
expect("give --gpt2-vocab encoder.json and --gpt2-merges vocab.bpe" in r2.stderr,
       "missing tokenizer files were not reported", r2.stderr)
os.remove(weights)  # 500 MB
model = model.double()
with torch.no_grad():
    check_greedy("gpt2 (GPT-2 small, Hugging Face)", r,
                 lambda ids: model(torch.tensor([ids]))[0, -1].numpy())
del model


# ---- the other presets: zero blocks, random wte, wpe, ln_f ----
def embedding_only(folder, nanogpt, V, L, H, D, seed):
    """The preset's tensors in the layout's names and shapes, its blocks zero (sparse); returns
    next_logits for float64 greedy decoding."""
    rng = np.random.default_rng(seed)
    wte = rng.normal(0, 0.3, (V, D)).astype("<f4")
    wpe = rng.normal(0, 0.3, (1024, D)).astype("<f4")
    gamma = (1 + rng.normal(0, 0.5, D)).astype("<f4")
    beta = rng.normal(0, 0.5, D).astype("<f4")
    prefix = "transformer." if nanogpt else ""
    shapes = [("wte.weight", [V, D], wte), ("wpe.weight", [1024, D], wpe),
              ("ln_f.weight", [D], gamma), ("ln_f.bias", [D], beta)]
    for l in range(L):
        h = "h.%d." % l
        io_ = (lambda o, i: [o, i]) if nanogpt else (lambda o, i: [i, o])  # nn.Linear / Conv1D
        shapes += [(h + "ln_1.weight", [D], None), (h + "ln_1.bias", [D], None),
                   (h + "attn.c_attn.weight", io_(3 * D, D), None), (h + "attn.c_attn.bias", [3 * D], None),
                   (h + "attn.c_proj.weight", io_(D, D), None), (h + "attn.c_proj.bias", [D], None),
                   (h + "ln_2.weight", [D], None), (h + "ln_2.bias", [D], None),
                   (h + "mlp.c_fc.weight", io_(4 * D, D), None), (h + "mlp.c_fc.bias", [4 * D], None),
                   (h + "mlp.c_proj.weight", io_(D, 4 * D), None), (h + "mlp.c_proj.bias", [D], None)]
    meta = {"format": "pt"}
    if nanogpt:  # what `typeformer_torch.py from-nanogpt` keeps
        meta["model_args"] = json.dumps({"bias": True, "block_size": 1024, "dropout": 0.0,
                                         "n_embd": D, "n_head": H, "n_layer": L, "vocab_size": V},
                                        sort_keys=True)
    header, off = {"__metadata__": meta}, 0
    for name, shape, _ in shapes:
        n = 4 * int(np.prod(shape))
        header[prefix + name] = {"dtype": "F32", "shape": shape, "data_offsets": [off, off + n]}
        off += n
    h = json.dumps(header).encode()
    h += b" " * (-len(h) % 8)
    os.makedirs(folder)
    path = os.path.join(folder, "gpt.safetensors" if nanogpt else "model.safetensors")
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h)
        for _, _, data in shapes[:4]:
            f.write(data.tobytes())
        f.truncate(8 + len(h) + off)  # the blocks: zeros, never written
    if not nanogpt:
        with open(os.path.join(folder, "config.json"), "w") as f:
            json.dump({"model_type": "gpt2", "vocab_size": V, "n_positions": 1024, "n_embd": D,
                       "n_layer": L, "n_head": H, "activation_function": "gelu_new",
                       "layer_norm_epsilon": 1e-5}, f)
    E, P = wte.astype(np.float64), wpe.astype(np.float64)
    g, b = gamma.astype(np.float64), beta.astype(np.float64)

    def next_logits(ids):
        x = E[ids[-1]] + P[len(ids) - 1]
        y = (x - x.mean()) / np.sqrt(x.var() + 1e-5) * g + b
        return E @ y

    return path, next_logits


for name, nanogpt, V, L, H, D in (
        ("nanoGPT gpt2 (GPT-2 small as train.py trains it", True, 50304, 12, 12, 768),
        ("gpt2-medium (GPT-2 medium, Hugging Face)", False, 50257, 24, 16, 1024),
        ("nanoGPT gpt2-medium (N_V 50304", True, 50304, 24, 16, 1024)):
    folder = os.path.join(work, "%s-%d-%d" % ("nano" if nanogpt else "hf", V, L))
    path, next_logits = embedding_only(folder, nanogpt, V, L, H, D, L + V)
    r = run(generate, "--nanogpt" if nanogpt else "--hf-gpt2", path, *vocab, *greedy)
    os.remove(path)
    check_greedy(name, r, next_logits)
    expect(r.stdout.startswith("Hello, typed world"), "the prompt first", r.stdout)


# ---- a file whose N_V is no tokenizer's: one line naming both ----
tiny = os.path.join(work, "tiny")
gpt_ref.run(["hf", "3", tiny, os.path.join(work, "tiny.tfx"), "gelu_new", "1e-5", "1", "1"])
tiny_weights = os.path.join(tiny, "model.safetensors")
one_line(run(generate, "--hf-gpt2", tiny_weights, *vocab, ok=False),
         "has N_V = 50 (config.json's vocab_size) but GPT-2's vocabulary (--gpt2-vocab) has 50257 tokens")
one_line(run(generate, "--hf-gpt2", tiny_weights, ok=False),
         "has N_V = 50 (config.json's vocab_size), the vocabulary of no tokenizer here",
         "GPT-2's 50257 tokens", "259 bytes", "--meta meta.pkl")
print("tools.gpt2_presets: ok")
