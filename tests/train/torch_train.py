"""Independent reference for tests/train: training steps of Algorithms 11-13 as PyTorch runs them.

The forward passes and losses are tests/models/torch_models.py's (written from the paper);
the step is PyTorch's own machinery: autograd, torch.nn.utils.clip_grad_norm_, torch.optim.SGD
or torch.optim.AdamW with two parameter groups (gains and biases without weight decay unless
opt.decay_gb), and the learning rate of each step computed here from the schedule's definition.

Input (tests/support/oracle.py format): the cases c<k> of torch_models.py, one per sequence, all
with the same weights (c0's are used); `batches` = the number of cases of each step, in order;
opt.method (0 SGD, 1 AdamW), opt.lr, opt.beta1, opt.beta2, opt.eps, opt.wd, opt.decay_gb,
opt.clip (0: none), opt.warmup, opt.decay_steps, opt.min_lr, opt.reduction (0 sum, 1 mean per
sequence, 2 mean per token).
Output: W.<name> after every step; loss.<s>, lr.<s>, norm.<s> per step s.
"""
import math
import os
import sys

import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "support"))
sys.path.insert(0, os.path.join(here, "..", "models"))
import oracle  # noqa: E402
import torch_models as tm  # noqa: E402


def config(inp):
    get = lambda name: inp["c0." + name]  # noqa: E731
    return {
        "H": int(get("H")), "eps": float(get("eps")), "rms": bool(get("rms")),
        "tied": bool(get("tied")), "sinusoidal": bool(get("sinusoidal")),
        "gelu_tanh": bool(get("gelu_tanh")), "L": int(get("L")), "L_enc": int(get("L_enc")),
        "L_dec": int(get("L_dec")), "l_max": int(get("l_max")), "arch": int(get("arch")),
    }


def sequence_loss(inp, k, W, c):
    """Returns (loss, number of scored positions) of case k."""
    tokens = lambda name: [int(v) for v in inp["c%d.%s" % (k, name)].reshape(-1).tolist()]  # noqa
    x = tokens("x")
    if c["arch"] == 0:
        return tm.next_token_loss(tm.dtransformer(x, W, c), x), len(x) - 1
    if c["arch"] == 1:
        x_tilde = tokens("x_tilde")
        N_V = W["W_e"].shape[1]
        # scored positions: the given targets (BERT) or x~ = mask (the paper)
        if "c%d.targets" % k in inp:
            targets = tokens("targets")
            logP = tm.log_softmax_columns(tm.etransformer(x_tilde, W, c))
            loss = torch.zeros((), dtype=torch.float64)
            n = 0
            for t, y in enumerate(targets):
                if y >= 0:
                    loss = loss - logP[y, t]
                    n += 1
            return loss, n
        n = sum(1 for v in x_tilde if v == N_V - 3)
        return tm.masked_loss(tm.etransformer(x_tilde, W, c), x_tilde, x, N_V - 3), n
    z = tokens("z")
    return tm.next_token_loss(tm.edtransformer(z, x, W, c), x), len(x) - 1


def learning_rate(o, step):
    lr, warm, decay, lo = o["lr"], o["warmup"], o["decay_steps"], o["min_lr"]
    if step < warm:
        return lr * (step + 1) / warm
    if decay == 0:
        return lr
    k = step - warm
    if k >= decay:
        return lo
    return lo + (lr - lo) * 0.5 * (1 + math.cos(math.pi * k / decay))


def main(inp):
    c = config(inp)
    names = sorted(k[len("c0.W."):] for k in inp if k.startswith("c0.W."))
    W = {n: inp["c0.W." + n].clone().requires_grad_(True) for n in names}
    o = {k[4:]: float(v) for k, v in inp.items() if k.startswith("opt.")}
    leaf = lambda n: n.split(".")[-1]  # noqa: E731
    no_decay = lambda n: leaf(n) in ("gamma", "beta") or leaf(n).startswith("b_")  # noqa: E731
    if int(o["method"]) == 0:
        opt = torch.optim.SGD([W[n] for n in names], lr=o["lr"])
    else:
        decay_all = bool(o["decay_gb"])
        groups = [
            {"params": [W[n] for n in names if decay_all or not no_decay(n)],
             "weight_decay": o["wd"]},
            {"params": [W[n] for n in names if not decay_all and no_decay(n)],
             "weight_decay": 0.0},
        ]
        opt = torch.optim.AdamW(groups, lr=o["lr"], betas=(o["beta1"], o["beta2"]), eps=o["eps"])
    out = {}
    k = 0
    for s, size in enumerate(int(v) for v in inp["batches"].reshape(-1).tolist()):
        opt.zero_grad()
        total = torch.zeros((), dtype=torch.float64)
        tokens = 0
        for _ in range(size):
            loss, n = sequence_loss(inp, k, W, c)
            total = total + loss
            tokens += n
            k += 1
        red = int(o["reduction"])
        scale = 1.0 if red == 0 else (1.0 / size if red == 1 else (1.0 / tokens if tokens else 0.0))
        objective = total * scale
        objective.backward()
        for n in names:
            if W[n].grad is None:
                W[n].grad = torch.zeros_like(W[n])
        if o["clip"] > 0:
            norm = torch.nn.utils.clip_grad_norm_([W[n] for n in names], o["clip"])
        else:
            norm = torch.sqrt(sum((W[n].grad ** 2).sum() for n in names))
        lr = learning_rate(o, s)
        for g in opt.param_groups:
            g["lr"] = lr
        opt.step()
        out["loss.%d" % s] = objective.detach()
        out["lr.%d" % s] = torch.tensor(lr)
        out["norm.%d" % s] = norm.detach()
    for n in names:
        out["W." + n] = W[n].detach()
    return out


if __name__ == "__main__":
    oracle.main(main)
