#!/usr/bin/python3
"""tools.gpt_import: typeformer-generate and typeformer-inspect on nanoGPT and Hugging Face files.

A typeformer-train checkpoint (the tiny preset, byte tokens) goes to nanoGPT's ckpt.pt and to
Hugging Face's folder through tools/typeformer_torch.py, and comes back: typeformer-generate
--nanogpt / --hf-gpt2 picks the tiny preset from the file's model_args / config.json and decodes
greedily the same ids as from the checkpoint itself; typeformer-inspect names the model, its
parameter count, the config struct and the preset for all three files. A GPT-2 medium header
(its tensors left sparse, never read) is recognised as the gpt2-medium preset; a file no preset
matches is refused with its configuration and the list of presets; a Hugging Face file without
config.json is refused unless --accept-no-config.

  gpt_import_test.py <tools dir> <typeformer_torch.py> <gpt_ref.py> <text> <work dir>
"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys

tools, bridge, gpt_ref, text, work = sys.argv[1:6]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
py = sys.executable


def run(*cmd, ok=True):
    r = subprocess.run([str(c) for c in cmd], capture_output=True, encoding="utf-8",
                       errors="replace", timeout=300)
    if ok and r.returncode != 0:
        sys.exit("failed (%d): %s\n%s\n%s" % (r.returncode, " ".join(map(str, cmd)), r.stdout, r.stderr))
    if not ok and r.returncode == 0:
        sys.exit("accepted: %s\n%s" % (" ".join(map(str, cmd)), r.stdout))
    return r


def tool(name):
    return os.path.join(tools, "typeformer-" + name)


def ids(r):
    m = re.search(r"\nids: ([0-9 ]*)", "\n" + r.stderr)
    if not m:
        sys.exit("no ids in: " + r.stderr)
    return m.group(1).split()


def expect(cond, what, output):
    if not cond:
        sys.exit("%s:\n%s" % (what, output))


run_dir = os.path.join(work, "run")
run(tool("train"), text, "--model", "tiny", "--steps", "3", "--seconds", "0", "--eval-every", "0",
    "--out", run_dir, "--sample-tokens", "0")
ckpt = os.path.join(run_dir, "model.ckpt")
greedy = ["--prompt", "The ", "-n", "8", "--tau", "0", "--ids"]
want = ids(run(tool("generate"), ckpt, *greedy))

# nanoGPT and back
run(py, bridge, "to-nanogpt", ckpt, os.path.join(work, "ckpt.pt"))
nano = os.path.join(work, "nano.safetensors")
run(py, bridge, "from-nanogpt", os.path.join(work, "ckpt.pt"), nano)
r = run(tool("generate"), "--nanogpt", nano, *greedy)
expect(ids(r) == want, "--nanogpt gave other ids than the checkpoint (%s)" % want, r.stderr)
expect("tiny, byte tokens" in r.stderr, "--nanogpt did not name the preset", r.stderr)

# Hugging Face and back
hf = os.path.join(work, "hf")
run(py, bridge, "to-hf", ckpt, hf)
r = run(tool("generate"), "--hf-gpt2", os.path.join(hf, "model.safetensors"), *greedy)
expect(ids(r) == want, "--hf-gpt2 gave other ids than the checkpoint (%s)" % want, r.stderr)

# inspect: all three name the model, the same parameter count, the config struct and the preset
counts = set()
for f, kind in ((ckpt, "typeformer training checkpoint"), (nano, "nanoGPT checkpoint"),
                (os.path.join(hf, "model.safetensors"), "Hugging Face GPT-2 checkpoint")):
    out = run(tool("inspect"), f).stdout
    for needle in (kind, "N_V=259 l_max=32 L=2 H=2 d_e=32 d_mlp=128 d_attn=16 d_mid=16",
                   "static constexpr std::size_t N_V = 259, l_max = 32, L = 2, H = 2, d_e = 32, "
                   "d_mlp = 128, d_attn = 16, d_mid = 16;", "tiny, byte tokens"):
        expect(needle in out, "inspect %s: no '%s'" % (f, needle), out)
    counts.add(re.search(r"tensors, ([0-9,]+) parameters\)", out).group(1))
# W_e 259·32, W_p 32·32, 2 layers of 12,704, ln_f 64 (W_u tied)
expect(counts == {"34,784"}, "parameter counts %s, not 34,784" % counts, "")
out = run(tool("inspect"), ckpt).stdout
expect("--model tiny --tokenizer byte" in out, "inspect names the train preset", out)

# no config: refused, then accepted on request
bare = os.path.join(work, "bare")
os.makedirs(bare)
shutil.copy(os.path.join(hf, "model.safetensors"), bare)
r = run(tool("generate"), "--hf-gpt2", os.path.join(bare, "model.safetensors"), *greedy, ok=False)
expect("no config.json beside it" in r.stderr and "--accept-no-config" in r.stderr,
       "a file without config was not refused with the option to give", r.stderr)
r = run(tool("generate"), "--hf-gpt2", os.path.join(bare, "model.safetensors"), "--accept-no-config",
        *greedy)
expect(ids(r) == want, "--accept-no-config gave other ids", r.stderr)
out = run(tool("inspect"), os.path.join(bare, "model.safetensors")).stdout
expect("its tensors only" in out and "H unknown" not in out and "H=0" in out, "inspect bare", out)

# GPT-2 medium's shapes in Hugging Face's names (data sparse, never read by inspect)
med = os.path.join(work, "medium")
os.makedirs(med)
V, T, L, D = 50257, 1024, 24, 1024
shapes = {"wte.weight": [V, D], "wpe.weight": [T, D], "ln_f.weight": [D], "ln_f.bias": [D]}
for l in range(L):
    h = "h.%d." % l
    shapes.update({h + "ln_1.weight": [D], h + "ln_1.bias": [D], h + "attn.c_attn.weight": [D, 3 * D],
                   h + "attn.c_attn.bias": [3 * D], h + "attn.c_proj.weight": [D, D],
                   h + "attn.c_proj.bias": [D], h + "ln_2.weight": [D], h + "ln_2.bias": [D],
                   h + "mlp.c_fc.weight": [D, 4 * D], h + "mlp.c_fc.bias": [4 * D],
                   h + "mlp.c_proj.weight": [4 * D, D], h + "mlp.c_proj.bias": [D]})
header, off = {}, 0
for k, s in shapes.items():
    n = 4
    for x in s:
        n *= x
    header[k] = {"dtype": "F32", "shape": s, "data_offsets": [off, off + n]}
    off += n
h = json.dumps(header).encode()
h += b" " * (-len(h) % 8)
with open(os.path.join(med, "model.safetensors"), "wb") as f:
    f.write(struct.pack("<Q", len(h)) + h)
    f.truncate(8 + len(h) + off)  # sparse: no data written
with open(os.path.join(med, "config.json"), "w") as f:
    json.dump({"model_type": "gpt2", "vocab_size": V, "n_positions": T, "n_embd": D, "n_layer": L,
               "n_head": 16, "activation_function": "gelu_new", "layer_norm_epsilon": 1e-5}, f)
out = run(tool("inspect"), os.path.join(med, "model.safetensors")).stdout
expect("354,823,168 parameters" in out and "gpt2-medium (GPT-2 medium, Hugging Face)" in out,
       "GPT-2 medium was not recognised", out)

# a GPT no preset matches: its configuration and the presets
small = os.path.join(work, "small")
run(py, gpt_ref, "hf", "7", small, os.path.join(work, "small.tfx"), "gelu_new", "1e-5", "1", "1")
r = run(tool("generate"), "--hf-gpt2", os.path.join(small, "model.safetensors"), ok=False)
expect("no preset of this tool matches" in r.stderr and "N_V=50 l_max=24 L=2 H=2" in r.stderr
       and "gpt2-medium" in r.stderr and "tiny, byte tokens" in r.stderr,
       "a GPT of no preset was not reported with its configuration and the presets", r.stderr)
print("tools.gpt_import: ok")
