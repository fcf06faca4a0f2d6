#!/usr/bin/env python3
"""An independent safetensors writer/reader (struct + json, no safetensors package) and a
PyTorch Adam/AdamW oracle for typeformer's io tests.

  write <spec> <out>        tensors of the spec, in its dtypes (F32, F64, BF16, F16), with
                            pattern values; header and data in reverse walk order
  check <spec> <file>       a file typeformer saved: layout, names, order, shapes, values
  adam <kind> <params> <grads_prefix> <steps> <out_prefix> <lr> <b1> <b2> <eps> <wd>
                            kind: adam | adamw; runs torch.optim.<Kind> on the params file
                            with gradients <grads_prefix><step>.safetensors; writes
                            <out_prefix>params|m|v.safetensors

A spec has one line per tensor in typeformer's walk order: "name dtype d0,d1,...".
pattern(j, k) is the value of row-major element k of the j-th tensor (test_util.hpp).
"""
import json
import struct
import sys

import numpy as np
import torch

NP_TYPES = {"F32": "<f4", "F64": "<f8", "F16": "<f2"}


def pattern(j, k):
    return ((k * 7 + j * 13) % 61 - 30) / 64.0


def read_spec(path):
    spec = []
    with open(path) as f:
        for line in f:
            if line.strip():
                name, dtype, dims = line.split()
                spec.append((name, dtype, [int(d) for d in dims.split(",")]))
    return spec


def pattern_tensor(j, shape):
    n = 1
    for d in shape:
        n *= d
    return torch.tensor([pattern(j, k) for k in range(n)], dtype=torch.float64).reshape(shape)


def to_bytes(t, dtype):
    t = t.contiguous()
    if dtype == "BF16":
        return t.to(torch.bfloat16).view(torch.int16).numpy().astype("<i2").tobytes()
    torch_type = {"F32": torch.float32, "F64": torch.float64, "F16": torch.float16}[dtype]
    return t.to(torch_type).numpy().astype(NP_TYPES[dtype]).tobytes()


def from_bytes(b, dtype, shape):
    if dtype == "BF16":
        bits = np.frombuffer(b, dtype="<i2").astype(np.int16).copy()
        return torch.from_numpy(bits).view(torch.bfloat16).reshape(shape)
    return torch.from_numpy(np.frombuffer(b, dtype=NP_TYPES[dtype]).astype(NP_TYPES[dtype][1:]).copy()).reshape(shape)


def write_file(path, tensors, header_order=None, data_order=None):
    """tensors: list of (name, dtype, tensor). Orders are lists of indices."""
    header_order = header_order if header_order is not None else range(len(tensors))
    data_order = data_order if data_order is not None else range(len(tensors))
    blobs, offsets, off = [], {}, 0
    for i in data_order:
        name, dtype, t = tensors[i]
        b = to_bytes(t, dtype)
        offsets[name] = (off, off + len(b))
        blobs.append(b)
        off += len(b)
    header = {"__metadata__": {"format": "pt", "writer": "safetensors_ref.py"}}
    for i in header_order:
        name, dtype, t = tensors[i]
        header[name] = {"dtype": dtype, "shape": list(t.shape), "data_offsets": list(offsets[name])}
    js = json.dumps(header, separators=(",", ":")).encode("utf-8")
    js += b" " * (-len(js) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(js)))
        f.write(js)
        for b in blobs:
            f.write(b)


def read_file(path):
    """-> (header dict in file order, raw header bytes, {name: tensor in its dtype})."""
    with open(path, "rb") as f:
        data = f.read()
    (n,) = struct.unpack("<Q", data[:8])
    raw = data[8 : 8 + n]
    header = json.loads(raw.decode("utf-8"))
    body = data[8 + n :]
    tensors = {}
    for name, info in header.items():
        if name == "__metadata__":
            continue
        b, e = info["data_offsets"]
        tensors[name] = from_bytes(body[b:e], info["dtype"], info["shape"])
    return header, raw, body, tensors


def fail(msg):
    print("safetensors_ref.py: FAIL:", msg, file=sys.stderr)
    sys.exit(1)


def cmd_write(spec_path, out):
    spec = read_spec(spec_path)
    tensors = [(name, dtype, pattern_tensor(j, shape)) for j, (name, dtype, shape) in enumerate(spec)]
    rev = list(reversed(range(len(tensors))))
    # Header in reverse walk order, data in another order still: the reader must go by name.
    data_order = rev[1::2] + rev[0::2]
    write_file(out, tensors, header_order=rev, data_order=data_order)


def cmd_check(spec_path, path):
    spec = read_spec(spec_path)
    header, raw, body, tensors = read_file(path)
    if (8 + len(raw)) % 8 != 0:
        fail("header length is not a multiple of 8")
    if not (raw.startswith(b"{") and raw.rstrip(b" ").endswith(b"}")):
        fail("header is not a JSON object padded with spaces")
    if header.get("__metadata__") != {"format": "pt"}:
        fail(f"__metadata__ is {header.get('__metadata__')}")
    names = [k for k in header if k != "__metadata__"]
    if names != [s[0] for s in spec]:
        fail(f"names/order differ:\n{names}\n{[s[0] for s in spec]}")
    expect_off = 0
    for j, (name, dtype, shape) in enumerate(spec):
        info = header[name]
        if info["dtype"] != dtype:
            fail(f"{name}: dtype {info['dtype']}, expected {dtype}")
        if info["shape"] != shape:
            fail(f"{name}: shape {info['shape']}, expected {shape}")
        b, e = info["data_offsets"]
        if b != expect_off:
            fail(f"{name}: data starts at {b}, expected {expect_off} (walk order, no gaps)")
        expect_off = e
        got = tensors[name].to(torch.float64)
        want = pattern_tensor(j, shape)
        if not torch.equal(got, want):
            fail(f"{name}: values differ (max |diff| {(got - want).abs().max().item()})")
        if name.endswith(".W_q"):
            # The layout the file promises: W_q[h, i, c] is row h·d_attn + i, column c of the
            # stacked (H·d_attn, d_e) matrix, i.e. element (h·d_attn + i)·d_e + c row-major.
            H, d_attn, d_e = shape
            for h in range(H):
                for i in range(d_attn):
                    for c in range(d_e):
                        if got[h, i, c].item() != pattern(j, (h * d_attn + i) * d_e + c):
                            fail(f"{name}[{h}, {i}, {c}] is not row {h * d_attn + i}, column {c}")
    if expect_off != len(body):
        fail(f"data is {len(body)} bytes, tensors end at {expect_off}")
    print(f"safetensors_ref.py: {path}: {len(names)} tensors ok")


def cmd_adam(kind, params_path, grads_prefix, steps, out_prefix, lr, b1, b2, eps, wd):
    header, _, _, init = read_file(params_path)
    names = [k for k in header if k != "__metadata__"]
    dtype = header[names[0]]["dtype"]
    params = [torch.nn.Parameter(init[n].clone()) for n in names]
    Opt = {"adam": torch.optim.Adam, "adamw": torch.optim.AdamW}[kind]
    opt = Opt(params, lr=lr, betas=(b1, b2), eps=eps, weight_decay=wd, foreach=False)
    for s in range(steps):
        _, _, _, grads = read_file(f"{grads_prefix}{s}.safetensors")
        for n, p in zip(names, params):
            p.grad = grads[n].to(p.dtype).clone()
        opt.step()
    for what, get in (
        ("params", lambda p: p.detach()),
        ("m", lambda p: opt.state[p]["exp_avg"]),
        ("v", lambda p: opt.state[p]["exp_avg_sq"]),
    ):
        write_file(f"{out_prefix}{what}.safetensors", [(n, dtype, get(p)) for n, p in zip(names, params)])


def main(argv):
    cmd = argv[1]
    if cmd == "write":
        cmd_write(argv[2], argv[3])
    elif cmd == "check":
        cmd_check(argv[2], argv[3])
    elif cmd == "adam":
        kind, params_path, grads_prefix, steps, out_prefix = argv[2:7]
        lr, b1, b2, eps, wd = (float(x) for x in argv[7:12])
        cmd_adam(kind, params_path, grads_prefix, int(steps), out_prefix, lr, b1, b2, eps, wd)
    else:
        fail(f"unknown command {cmd}")


if __name__ == "__main__":
    main(sys.argv)
