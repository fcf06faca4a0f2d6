#!/usr/bin/env python3
"""Drives tools/typeformer_torch.py for test_interop: reads a typeformer file, builds the
torch.nn.Module, writes it back (the round trip) and writes the module's float64 logits.

  torch_bridge_ref.py <in> <out.safetensors> <logits.tfx> <gelu> <eps> <l_max> <x tokens,> [<z tokens,>]
"""
import os
import sys

import torch

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "tools"))
sys.path.insert(0, os.path.join(here, "..", "support"))
import oracle  # noqa: E402
import typeformer_torch as tt  # noqa: E402

src, dst, out, gelu, eps, l_max = sys.argv[1:7]
x = torch.tensor([[int(t) for t in sys.argv[7].split(",")]])
m = tt.load(src, gelu=gelu, eps=float(eps), l_max=int(l_max))
tt.save(m, dst)
m = m.double()
with torch.no_grad():
    logits = m(torch.tensor([[int(t) for t in sys.argv[8].split(",")]]), x) if len(sys.argv) > 8 else m(x)
oracle.write(out, {"logits": logits[0].numpy(), "arch": [["DTransformer", "ETransformer", "EDTransformer"].index(m.arch)]})
