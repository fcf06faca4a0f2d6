"""Independent reference for tests/train/step_test.cpp: the gradient of Algorithm 13's loss with
respect to a chosen part of a DTransformer, as PyTorch autograd computes it when only that part has
requires_grad=True (the frozen parameters are plain tensors, so autograd forms nothing for them).

The model and the loss are tests/models/torch_models.py's (written from the paper). LoRA is
written from its paper (Hu et al. 2021) and PEFT: W_eff = W + (alpha/r)·B·A for each adapted
matrix, A (r, in), B (out, r), with the base W frozen.

Input (tests/support/oracle.py format), per case c<k>: torch_models.py's keys (arch must be 0),
and
  c<k>.mode         0 every parameter, 1 gains and biases, 2 the last k layers + ln_f + W_u,
                    3 LoRA adapters
  c<k>.k            mode 2: k
  c<k>.lora_scale   mode 3: alpha / r
  c<k>.lora.<name>  mode 3: every adapter factor, e.g. lora.layers.0.attn.W_q.A (r, d_e)
Output per case: c<k>.loss, and c<k>.grad.<name> for every trainable tensor and nothing else
(adapters under their own names, layers.0.attn.W_q.A).
"""
import os
import sys

import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "support"))
sys.path.insert(0, os.path.join(here, "..", "models"))
import oracle  # noqa: E402
import torch_models as tm  # noqa: E402


def is_gain_or_bias(name):
    last = name.rsplit(".", 1)[-1]
    return last in ("gamma", "beta") or last.startswith("b_")


def trains(name, mode, k, L):
    if mode == 0:
        return True
    if mode == 1:
        return is_gain_or_bias(name)
    if mode == 2:
        if name.startswith("ln_f.") or name == "W_u":
            return True
        if name.startswith("layers."):
            return int(name.split(".")[1]) >= L - k
        return False
    return False


def run_case(inp, k):
    pre = "c%d." % k
    get = lambda name: inp[pre + name]  # noqa: E731
    if int(get("arch")) != 0:
        raise ValueError("torch_partial.py: DTransformer cases only")
    c = {
        "H": int(get("H")), "eps": float(get("eps")), "rms": bool(get("rms")),
        "tied": bool(get("tied")), "sinusoidal": bool(get("sinusoidal")),
        "gelu_tanh": bool(get("gelu_tanh")), "L": int(get("L")), "l_max": int(get("l_max")),
    }
    mode = int(get("mode"))
    kk = int(get("k")) if mode == 2 else 0
    W = {}
    trainable = {}
    for key, value in inp.items():
        if key.startswith(pre + "W."):
            name = key[len(pre) + 2:]
            t = trains(name, mode, kk, c["L"])
            W[name] = value.clone().requires_grad_(t)
            if t:
                trainable[name] = W[name]
    Weff = dict(W)
    if mode == 3:
        scale = float(get("lora_scale"))
        factors = {}
        for key, value in inp.items():
            if key.startswith(pre + "lora."):
                name = key[len(pre) + 5:]
                factors[name] = value.clone().requires_grad_(True)
                trainable[name] = factors[name]
        for name in factors:
            if name.endswith(".A"):
                target = name[:-2]  # layers.0.attn.W_q
                A, B = factors[name], factors[target + ".B"]
                Weff[target] = W[target] + scale * (B @ A)
    x = [int(v) for v in get("x").reshape(-1).tolist()]
    loss = tm.next_token_loss(tm.dtransformer(x, Weff, c), x)
    out = {pre + "loss": loss}
    out.update(tm.gradients(loss, trainable, pre))
    return out


main = tm.all_cases(run_case)


if __name__ == "__main__":
    oracle.main(main)
