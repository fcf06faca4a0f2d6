"""Exchange format shared with oracle.hpp: read and write named float64 arrays."""
import struct
import sys

import numpy as np


def read(path):
    out = {}
    with open(path, "rb") as f:
        if f.read(4) != b"TFX1":
            raise ValueError("bad magic")
        (count,) = struct.unpack("<I", f.read(4))
        for _ in range(count):
            (n,) = struct.unpack("<I", f.read(4))
            name = f.read(n).decode()
            (rank,) = struct.unpack("<I", f.read(4))
            shape = struct.unpack("<%dQ" % rank, f.read(8 * rank)) if rank else ()
            size = int(np.prod(shape)) if rank else 1
            data = np.frombuffer(f.read(8 * size), dtype="<f8").copy()
            out[name] = data.reshape(shape)
    return out


def write(path, arrays):
    with open(path, "wb") as f:
        f.write(b"TFX1")
        f.write(struct.pack("<I", len(arrays)))
        for name, a in arrays.items():
            a = np.ascontiguousarray(np.asarray(a, dtype="<f8"))
            b = name.encode()
            f.write(struct.pack("<I", len(b)))
            f.write(b)
            f.write(struct.pack("<I", a.ndim))
            f.write(struct.pack("<%dQ" % a.ndim, *a.shape))
            f.write(a.tobytes())


def main(fn):
    """Run fn(dict of torch float64 tensors) -> dict of tensors, with argv in/out paths."""
    import torch

    torch.set_default_dtype(torch.float64)
    inputs = {k: torch.tensor(v, dtype=torch.float64) for k, v in read(sys.argv[1]).items()}
    outputs = fn(inputs)
    write(sys.argv[2], {k: (v.detach().numpy() if hasattr(v, "detach") else v) for k, v in outputs.items()})
