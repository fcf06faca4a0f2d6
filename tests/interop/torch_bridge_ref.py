#!/usr/bin/env python3
"""Drives tools/typeformer_torch.py for test_interop: reads a typeformer file (its signature gives
the GELU form, eps and l_max), builds the torch.nn.Module, writes it back (the round trip) and
writes the module's float64 logits. An unsigned copy of the file must be refused without gelu=
and eps=, and read with them.

  torch_bridge_ref.py <in> <out.safetensors> <logits.tfx> <x tokens,> [<z tokens,>]
(or run(argv) from jobs.py)
"""
import os
import sys

import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "tools"))
sys.path.insert(0, os.path.join(here, "..", "support"))
import oracle  # noqa: E402
import typeformer_torch as tt  # noqa: E402


def run(argv):
    src, dst, out = argv[0:3]
    x = torch.tensor([[int(t) for t in argv[3].split(",")]])
    m = tt.load(src)
    tt.save(m, dst)

    # without its signature the file cannot say gelu and eps
    tensors, meta = tt.read_safetensors(src)
    unsigned = dst + ".unsigned"
    tt.write_safetensors(unsigned, tensors)
    try:
        tt.load(unsigned)
        sys.exit("an unsigned file was read without gelu= and eps=")
    except ValueError as e:
        assert "pass gelu=" in str(e), e
    sig = m.signature()
    again = tt.load(unsigned, gelu=sig.get("gelu", "erf"), eps=sig["eps"], l_max=sig["l_max"])
    assert again.signature() == sig, (again.signature(), sig)
    try:
        tt.load(src, eps=0.5)
        sys.exit("an argument that contradicts the signature was accepted")
    except ValueError as e:
        assert "eps: file" in str(e), e

    m = m.double()
    with torch.no_grad():
        logits = m(torch.tensor([[int(t) for t in argv[4].split(",")]]), x) if len(argv) > 4 else m(x)
    oracle.write(out, {"logits": logits[0].numpy(), "arch": [["DTransformer", "ETransformer", "EDTransformer"].index(m.arch)]})


if __name__ == "__main__":
    run(sys.argv[1:])
