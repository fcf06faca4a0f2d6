#!/usr/bin/python3
"""typeformer-train's default job done the PyTorch way, for a time-to-quality comparison.

The same model (DESIGN's `small`: L 4, H 4, d_e 128, d_mlp 512, l_max 128, tied W_u, byte tokens
with N_V = 259, GELU, pre-norm, the paper's Algorithm 10), the same data (the bytes of
/usr/share/common-licenses, files sorted by name; the last 10% held out; consecutive sequences of
l_max bytes; the same 24 held-out sequences), the same batch (8) and loss (per-token mean), trained
with torch.optim.AdamW (lr 2e-3, weight decay 0.1, PyTorch's defaults otherwise, as a PyTorch user
would first write it: no schedule, no clipping) for the same wall-clock time. Prints the held-out
loss at the requested times.

    /usr/bin/python3 bench/torch_train_gpt.py [seconds = 60] [threads = torch's default]
"""
import math
import os
import sys
import time

# As bench_models does (bench/thread_env.hpp): idle threads sleep. Debian's libtorch runs its
# products on OpenBLAS's own thread pool beside its OpenMP threads, and that pool spins in
# sched_yield for ~0.1 s after each product, taking the core from the next operator's threads.
# Set before torch loads its libraries; a caller's values are kept.
os.environ.setdefault("OMP_WAIT_POLICY", "passive")
os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", "4")

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
import torch.nn.functional as F  # noqa: E402

SECONDS = float(sys.argv[1]) if len(sys.argv) > 1 else 60.0
if len(sys.argv) > 2:
    torch.set_num_threads(int(sys.argv[2]))
torch.manual_seed(1)

N_V, L_MAX, L, H, D_E, D_MLP, B = 259, 128, 4, 4, 128, 512, 8


def read_text(folder="/usr/share/common-licenses"):
    data = b""
    for name in sorted(os.listdir(folder)):
        p = os.path.join(folder, name)
        if os.path.isfile(p):
            with open(p, "rb") as f:
                data += f.read()
    return data


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln1 = nn.LayerNorm(D_E, eps=1e-5)
        self.qkv = nn.Linear(D_E, 3 * D_E)
        self.proj = nn.Linear(D_E, D_E)
        self.ln2 = nn.LayerNorm(D_E, eps=1e-5)
        self.fc = nn.Linear(D_E, D_MLP)
        self.out = nn.Linear(D_MLP, D_E)

    def forward(self, x):  # x: (B, T, d_e)
        b, t, _ = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(D_E, dim=2)
        q, k, v = (z.view(b, t, H, D_E // H).transpose(1, 2) for z in (q, k, v))
        att = (q @ k.transpose(-2, -1)) / math.sqrt(D_E // H)
        mask = torch.ones(t, t, dtype=torch.bool).tril()
        att = att.masked_fill(~mask, float("-inf")).softmax(dim=-1)
        y = (att @ v).transpose(1, 2).reshape(b, t, D_E)
        x = x + self.proj(y)
        return x + self.out(F.gelu(self.fc(self.ln2(x))))


class GPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.wte = nn.Embedding(N_V, D_E)
        self.wpe = nn.Embedding(L_MAX, D_E)
        self.blocks = nn.ModuleList(Block() for _ in range(L))
        self.ln_f = nn.LayerNorm(D_E, eps=1e-5)
        for p in self.parameters():
            if p.dim() > 1:
                nn.init.normal_(p, 0.0, 0.02)

    def forward(self, idx):
        x = self.wte(idx) + self.wpe(torch.arange(idx.shape[1]))
        for blk in self.blocks:
            x = blk(x)
        return self.ln_f(x) @ self.wte.weight.T  # tied W_u


def main():
    data = torch.tensor(list(read_text()), dtype=torch.long)
    held = len(data) // 10
    train, test = data[: len(data) - held], data[len(data) - held:]
    chunks = [train[i: i + L_MAX] for i in range(0, len(train) - L_MAX + 1, L_MAX)]
    test_chunks = [test[i: i + L_MAX] for i in range(0, len(test) - L_MAX + 1, L_MAX)][:24]
    model = GPT()
    opt = torch.optim.AdamW(model.parameters(), lr=2e-3, weight_decay=0.1)

    def held_out():
        with torch.no_grad():
            x = torch.stack(test_chunks)
            logits = model(x[:, :-1])
            return F.cross_entropy(logits.reshape(-1, N_V), x[:, 1:].reshape(-1)).item()

    marks = [m for m in (15.0, 30.0, 60.0, SECONDS) if m <= SECONDS]
    start, step, pos, order = time.time(), 0, 0, torch.randperm(len(chunks))
    while True:
        t = time.time() - start
        while marks and t >= marks[0]:
            print(f"pytorch  t={marks.pop(0):5.1f}s  step {step:5d}  held-out loss {held_out():.4f}",
                  flush=True)
        if not marks:
            break
        if pos + B > len(chunks):  # a new epoch, in a new order
            order, pos = torch.randperm(len(chunks)), 0
        x = torch.stack([chunks[j] for j in order[pos: pos + B]])
        pos += B
        loss = F.cross_entropy(model(x[:, :-1]).reshape(-1, N_V), x[:, 1:].reshape(-1))
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        step += 1


if __name__ == "__main__":
    main()
