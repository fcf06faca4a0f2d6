#!/usr/bin/python3
"""tools.gpt_import: typeformer-generate and typeformer-inspect on nanoGPT and Hugging Face files.

A typeformer-train checkpoint (the tiny preset, byte tokens) goes to nanoGPT's ckpt.pt and to
Hugging Face's folder through tools/typeformer_torch.py, and comes back: typeformer-generate
--nanogpt / --hf-gpt2 picks the tiny preset from the file's model_args / config.json and decodes
greedily the same ids as from the checkpoint itself; typeformer-inspect names the model, its
parameter count, the config struct and the preset for all three files. The checkpoint's AdamW
state goes to nanoGPT's ckpt.pt and comes back (from-nanogpt --training) bit for bit, and
typeformer-train resumes from it. A GPT-2 medium header (its tensors left sparse, never read) is
recognised as the gpt2-medium preset; a byte-token GPT no preset matches is refused with its
configuration and the list of presets; a Hugging Face file without config.json is refused unless
--accept-no-config. nanoGPT's character-level models (shakespeare_char at its config's and its
README's CPU size; meta.pkl made as data/shakespeare_char/prepare.py makes it, found by
from-nanogpt where sample.py finds it) generate with their own characters the ids that float64
decoding of gpt_ref.py's reference GPT gives; without their vocabulary, or given GPT-2's files,
they are refused in one line.

The bridge and the reference run in this process (torch imported once).

  gpt_import_test.py <tools dir> <typeformer_torch.py> <gpt_ref.py> <text>
                     <folder of GPT-2's encoder.json and vocab.bpe> <work dir>
"""
import contextlib
import io
import json
import os
import pickle
import re
import shutil
import struct
import sys

import torch

from tool_check import expect, ids, module, one_line, run

tools, bridge_path, gpt_ref_path, text, gpt2_dir, work = sys.argv[1:7]
gpt2_files = ["--gpt2-vocab", os.path.join(gpt2_dir, "encoder.json"),
              "--gpt2-merges", os.path.join(gpt2_dir, "vocab.bpe")]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)


tt, gpt_ref = module("typeformer_torch", bridge_path), module("gpt_ref", gpt_ref_path)


def bridge(*argv):
    """typeformer_torch.py's command line, in this process: (stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        tt.main([str(a) for a in argv])
    return out.getvalue(), err.getvalue()


def tool(name):
    return os.path.join(tools, "typeformer-" + name)


run_dir = os.path.join(work, "run")
run(tool("train"), text, "--model", "tiny", "--steps", "3", "--seconds", "0", "--eval-every", "0",
    "--out", run_dir, "--sample-tokens", "0")
ckpt = os.path.join(run_dir, "model.ckpt")
greedy = ["--prompt", "The ", "-n", "8", "--tau", "0", "--ids"]
want = ids(run(tool("generate"), ckpt, *greedy))

# nanoGPT and back
out, _ = bridge("to-nanogpt", ckpt, os.path.join(work, "ckpt.pt"))
expect("continue with the checkpoint's options: python train.py --block_size=32 --batch_size=8"
       in out and "--init_from=resume" in out, "to-nanogpt did not print train.py's flags", out)
nano = os.path.join(work, "nano.safetensors")
bridge("from-nanogpt", os.path.join(work, "ckpt.pt"), nano)
r = run(tool("generate"), "--nanogpt", nano, *greedy)
expect(ids(r) == want, "--nanogpt gave other ids than the checkpoint (%s)" % want, r.stderr)
expect("tiny, byte tokens" in r.stderr, "--nanogpt did not name the preset", r.stderr)

# Hugging Face and back
hf = os.path.join(work, "hf")
bridge("to-hf", ckpt, hf)
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

# a byte-token GPT no preset matches: its configuration and the presets
torch.manual_seed(5)
odd = gpt_ref.GPT2LMHeadModel(gpt_ref.GPT2Config(vocab_size=259, n_positions=24, n_embd=16))
gpt_ref.random_weights(odd)
os.makedirs(os.path.join(work, "odd"))
gpt_ref.write_safetensors(os.path.join(work, "odd", "model.safetensors"),
                          {k[len("transformer."):]: v for k, v in odd.state_dict().items()
                           if k.startswith("transformer.") and not k.endswith(("attn.bias", "masked_bias"))})
with open(os.path.join(work, "odd", "config.json"), "w") as f:
    json.dump({"model_type": "gpt2", "vocab_size": 259, "n_positions": 24, "n_embd": 16,
               "n_layer": 2, "n_head": 2}, f)
r = run(tool("generate"), "--hf-gpt2", os.path.join(work, "odd", "model.safetensors"), ok=False)
expect("no preset of this tool matches" in r.stderr and "N_V=259 l_max=24 L=2 H=2" in r.stderr
       and "gpt2-medium" in r.stderr and "tiny, byte tokens" in r.stderr
       and "shakespeare_char" in r.stderr,
       "a GPT of no preset was not reported with its configuration and the presets", r.stderr)

# a partial mode's checkpoint (io/checkpoint.hpp's "typeformer.trains") holds no whole model
part_tensors, part_meta = tt.read_safetensors(ckpt)
part_meta["typeformer.trains"] = "lora r=4 targets=5 alpha=4"
partial = os.path.join(work, "partial.ckpt")
tt.write_safetensors(partial, part_tensors, metadata=part_meta)
try:
    bridge("to-nanogpt", partial, os.path.join(work, "partial.pt"))
    sys.exit("to-nanogpt accepted a partial mode's checkpoint")
except ValueError as e:
    expect("checkpoint of a partial training mode (it trains lora r=4" in str(e),
           "to-nanogpt of a partial checkpoint", str(e))

# ---- AdamW's state: typeformer -> nanoGPT (to-nanogpt) -> typeformer (from-nanogpt --training) ----
back = os.path.join(work, "back.ckpt")
out, _ = bridge("from-nanogpt", os.path.join(work, "ckpt.pt"), back, "--training")
expect("typeformer training checkpoint" in out and "at step 3 (AdamW step 3)" in out, "from-nanogpt "
       "--training", out)
mine, mine_meta = tt.read_safetensors(ckpt)
theirs, theirs_meta = tt.read_safetensors(back)
expect(list(mine) == list(theirs), "the checkpoint's tensors and order differ", "%s\n%s" % (list(mine), list(theirs)))
for n in mine:  # the model and both moments, bit for bit
    expect(torch.equal(mine[n], theirs[n]), "tensor %s changed on the way" % n, "")
for k in ("step", "adam_step", "opt.lr", "opt.beta1", "opt.beta2", "opt.eps", "opt.weight_decay",
          "opt.decay_gains_and_biases", "opt.clip_norm", "opt.batch_size", "opt.warmup_steps",
          "typeformer-train.model", "typeformer-train.tokenizer", "tokenizer"):
    expect(float(mine_meta[k]) == float(theirs_meta[k]) if k.startswith("opt.") else
           mine_meta[k] == theirs_meta[k], "%s: %r, back %r" % (k, mine_meta[k], theirs_meta[k]), "")
r = run(tool("train"), text, "--resume", back, "--steps", "4", "--seconds", "0", "--eval-every", "0",
        "--out", os.path.join(work, "resumed"), "--sample-tokens", "0")
expect("resuming %s at step 3" % back in r.stdout, "typeformer-train --resume", r.stdout)

# ---- nanoGPT's character-level models ----
chars = "\n !$&',-.3:;?ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"  # shakespeare_char's 65
with open(text, encoding="utf-8", errors="replace") as f:
    data = "".join(c for c in f.read() if c in chars) + chars
root = os.path.join(work, "nanoGPT")
stoi, itos = gpt_ref.prepare_char(data, os.path.join(root, "data", "shakespeare_char", "meta.pkl"))
assert len(stoi) == 65
prompt = "ROMEO: Where"
for name, n_layer, n_head, n_embd, block in (("shakespeare_char on a CPU", 4, 4, 128, 64),
                                             ("shakespeare_char (train_", 6, 6, 384, 256)):
    c = gpt_ref.GPTConfig(block_size=block, vocab_size=65, n_layer=n_layer, n_head=n_head,
                          n_embd=n_embd, bias=False)
    out_dir = os.path.join(root, "out-%d" % block)
    os.makedirs(out_dir)
    model = gpt_ref.char_ckpt(os.path.join(out_dir, "ckpt.pt"), c, block, "shakespeare_char")
    converted = os.path.join(work, "char%d.safetensors" % block)
    out, _ = bridge("from-nanogpt", os.path.join(out_dir, "ckpt.pt"), converted)
    expect("vocabulary: 65 characters from" in out, "from-nanogpt did not find meta.pkl", out)
    r = run(tool("generate"), "--nanogpt", converted, "--prompt", prompt, "-n", "24", "--tau", "0",
            "--ids")
    expect(name in r.stderr, "the preset %s" % name, r.stderr)
    want, complete = gpt_ref.greedy(model, [stoi[ch] for ch in prompt], 24)
    got = ids(r)
    expect(ids(r, "prompt ids") == [stoi[ch] for ch in prompt], "the prompt's ids", r.stderr)
    expect(got[:len(want)] == want, "%s: greedy ids %s, float64 decoding %s" % (name, got, want), r.stderr)
    expect(r.stdout == prompt + "".join(itos[t] for t in got) + "\n", "the text is not the ids' "
           "characters", r.stdout)
    print("%s: %d greedy characters equal%s" % (name, len(want), "" if complete else " (then a near tie)"))
inspected = run(tool("inspect"), converted).stdout
expect("vocabulary: 65 characters" in inspected and "nanoGPT shakespeare_char (train_" in inspected,
       "inspect of a character model", inspected)
r = run(tool("generate"), "--nanogpt", converted, "--prompt", "ROMEO: <", ok=False)
one_line(r, "character 7 ('<') is not in this vocabulary of 65 characters")
r = run(tool("generate"), "--nanogpt", converted, *gpt2_files, "--prompt", "ROMEO", ok=False)
one_line(r, "is a character-level model (65 characters from its meta.pkl, N_V = 65 (model_args' "
         "vocab_size)) but GPT-2's vocabulary (--gpt2-vocab) has 50257 tokens")
r = run(tool("generate"), "--nanogpt", nano, *gpt2_files, *greedy, ok=False)
one_line(r, "has N_V = 259 (model_args' vocab_size), typeformer's byte tokens, but GPT-2's "
         "vocabulary (--gpt2-vocab) has 50257 tokens")
# without its meta.pkl: converted with a note, refused by the tool in one line
lone = os.path.join(work, "lone")
os.makedirs(lone)
shutil.copy(os.path.join(root, "out-64", "ckpt.pt"), lone)
_, note = bridge("from-nanogpt", os.path.join(lone, "ckpt.pt"), os.path.join(lone, "gpt.safetensors"))
expect("no meta.pkl was found" in note and "--meta" in note, "from-nanogpt's note", note)
r = run(tool("generate"), "--nanogpt", os.path.join(lone, "gpt.safetensors"), ok=False)
one_line(r, "has N_V = 65 (model_args' vocab_size), the vocabulary of no tokenizer here",
         "--meta meta.pkl")
expect("(needs its character vocabulary" in run(tool("inspect"), os.path.join(lone, "gpt.safetensors")).stdout,
       "inspect of a character model without its vocabulary", "")
# ... and with --meta, the vocabulary
bridge("from-nanogpt", os.path.join(lone, "ckpt.pt"), os.path.join(lone, "gpt.safetensors"),
       "--meta", os.path.join(root, "data", "shakespeare_char", "meta.pkl"))
run(tool("generate"), "--nanogpt", os.path.join(lone, "gpt.safetensors"), "--prompt", "A", "-n", "2")


# the bridge's refusals, each one line naming what is wrong
def refused(needle, *argv):
    try:
        bridge(*argv)
    except ValueError as e:
        expect(needle in str(e), "from-nanogpt's refusal", str(e))
        return
    sys.exit("accepted: typeformer_torch.py %s" % " ".join(map(str, argv)))


other_meta = os.path.join(work, "other_meta.pkl")
gpt_ref.prepare_char(chars[1:], other_meta)  # 64 characters
refused("has 64 characters, but the model's vocab_size is 65", "from-nanogpt",
        os.path.join(lone, "ckpt.pt"), os.path.join(lone, "x.safetensors"), "--meta", other_meta)


class Payload:  # a pickle that would run a command when unpickled
    def __reduce__(self):
        return (os.system, ("touch %s" % os.path.join(work, "pwned"),))


evil = os.path.join(work, "evil.pkl")
with open(evil, "wb") as f:
    pickle.dump({"vocab_size": 1, "itos": {0: Payload()}}, f)
refused("is not nanoGPT's meta.pkl: it refers to posix.system", "from-nanogpt",
        os.path.join(lone, "ckpt.pt"), os.path.join(lone, "x.safetensors"), "--meta", evil)
expect(not os.path.exists(os.path.join(work, "pwned")), "meta.pkl's code ran", "")
odd_opt = torch.load(os.path.join(lone, "ckpt.pt"))  # an optimizer of other groups
odd_opt["optimizer"]["param_groups"] = odd_opt["optimizer"]["param_groups"][:1]
odd_opt["optimizer"]["state"] = {0: {"step": torch.tensor(1.0), "exp_avg": torch.zeros(1),
                                     "exp_avg_sq": torch.zeros(1)}}
torch.save(odd_opt, os.path.join(work, "odd_opt.pt"))
refused("the optimizer's parameter groups hold [", "from-nanogpt", os.path.join(work, "odd_opt.pt"),
        os.path.join(work, "x.ckpt"), "--training")
refused("--tokenizer-from %s holds another model" % ckpt, "from-nanogpt",
        os.path.join(lone, "ckpt.pt"), os.path.join(work, "x.ckpt"), "--training",
        "--tokenizer-from", ckpt)
print("tools.gpt_import: ok")
