#!/usr/bin/env python3
"""Data-parallel training of a typeformer model through tools/typeformer_torch.py, for
test_interop: 2 ranks on 127.0.0.1 with the gloo backend, launched by torchrun with the flags
that work on Debian 12 (Python 3.11, torch 1.13: without --redirects/--tee the elastic agent
crashes in its log redirection), bounded in time.

  ddp_ref.py launch <init.safetensors> <out.safetensors> <steps> <eta> <seq>...
      picks a free port on 127.0.0.1 and runs
        python3 -m torch.distributed.run --nproc_per_node=2 --master_addr=127.0.0.1
            --master_port=<port> --redirects 2 --tee 2 ddp_ref.py train <same arguments>
      with a 120 s limit.
  ddp_ref.py train ...   (one rank) each rank takes its half of the global batch (seq: comma-
      separated token ids), loss = Algorithm 13's summed cross-entropy over its sequences times
      the world size (DDP averages the ranks' gradients: the step is then the gradient of the
      whole batch's summed loss, typeformer's convention), `steps` SGD steps of eta; rank 0
      saves the result with tt.save.
"""
import os
import socket
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))


def launch(argv):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "torch.distributed.run", "--nproc_per_node=2",
           "--master_addr=127.0.0.1", "--master_port=%d" % port, "--redirects", "2", "--tee", "2",
           os.path.abspath(__file__), "train"] + argv
    env = dict(os.environ, OMP_NUM_THREADS="1")
    sys.exit(subprocess.run(cmd, timeout=120, env=env).returncode)


def train(argv):
    import torch
    import torch.distributed as dist
    import torch.nn.functional as F
    sys.path.insert(0, os.path.join(here, "..", "..", "tools"))
    import typeformer_torch as tt

    init, out, steps, eta = argv[0], argv[1], int(argv[2]), float(argv[3])
    seqs = [[int(t) for t in s.split(",")] for s in argv[4:]]
    dist.init_process_group("gloo")  # env:// from torchrun
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(0)
    model = torch.nn.parallel.DistributedDataParallel(tt.load(init))
    opt = torch.optim.SGD(model.parameters(), lr=eta)
    mine = seqs[rank::world]  # this rank's part of the global batch
    for _ in range(steps):
        opt.zero_grad()
        loss = 0.0
        for s in mine:  # sequences of different lengths: one forward each
            x = torch.tensor([s])
            logits = model(x)[0]
            loss = loss + F.cross_entropy(logits[:-1], x[0, 1:], reduction="sum")
        (loss * world).backward()  # DDP averages over the ranks
        opt.step()
    if rank == 0:
        tt.save(model, out)
    dist.barrier()
    dist.destroy_process_group()


def run(argv):
    {"launch": launch, "train": train}[argv[0]](argv[1:])


if __name__ == "__main__":
    run(sys.argv[1:])
