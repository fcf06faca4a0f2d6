"""Checks a header of typeformer-export-header against the checkpoint it came from, read here
from the safetensors file (the checkpoint's model.* tensors):

  export_header_check.py model.ckpt weights.hpp          the float header: the same values,
                                                         every one exactly (compared as sorted
                                                         lists per model: the header holds each
                                                         tensor in memory order, the file in
                                                         row-major order)
  export_header_check.py model.ckpt weights.hpp --q8     the int8 header: every weight matrix
                                                         row's scale is max|w| / 127 of the
                                                         checkpoint's row, and every weight is
                                                         within half a step of scale · q, |q| ≤
                                                         127; the float tensors exact, as above

The header's tensors are found by the comment export_header writes before each one:
/* layers.0.attn.W_q (int8 rows, a scale each) */ {.q = {…}, .scale = {…}} and /* ln_f.gamma */.
"""
import json
import re
import struct
import sys

ckpt, header = sys.argv[1], sys.argv[2]
q8 = "--q8" in sys.argv[3:]
with open(ckpt, "rb") as f:
    n = struct.unpack("<Q", f.read(8))[0]
    meta = json.loads(f.read(n))
    data = f.read()
tensors = {}
for name, t in meta.items():
    if not name.startswith("model."):
        continue
    if t["dtype"] != "F32":
        sys.exit(f"FAIL: {name} is {t['dtype']}, expected F32")
    begin, end = t["data_offsets"]
    tensors[name[len("model."):]] = (t["shape"], struct.unpack(f"<{(end - begin) // 4}f",
                                                                data[begin:end]))
text = open(header).read()
at = text.find("inline constexpr Model ")
if at < 0:
    sys.exit("FAIL: the header holds no `inline constexpr Model` object")
body = text[at:]
FLOAT = r"-?0x[0-9a-fA-F.]+p[+-]?\d+f"


def floats(s):
    return [float.fromhex(w.rstrip("f")) for w in re.findall(FLOAT, s)]


if not q8:
    got = floats(body)
    expected = [v for _, values in tensors.values() for v in values]
    if len(got) != len(expected):
        sys.exit(f"FAIL: {len(got)} values in the header, {len(expected)} in the checkpoint")
    if sorted(got) != sorted(expected):
        sys.exit("FAIL: the header's values differ from the checkpoint's")
    print(f"ok: {len(got)} parameters, exactly the checkpoint's")
    sys.exit(0)

# int8: each /* name (int8 rows, a scale each) */ block, and the float leaves between them
blocks = re.findall(r"/\* (\S+)( \(transposed\))? \(int8 rows, a scale each\) \*/ "
                    r"\{\.q = \{([^}]*)\}, \.scale = \{([^}]*)\}\}", body)
if not blocks:
    sys.exit("FAIL: no int8 matrix in the header (was it written with --q8?)")
matrices, weights = set(), 0
for name, transposed, q_text, s_text in blocks:
    key = "W_e" if name == "W_e" else name
    if key not in tensors:
        sys.exit(f"FAIL: the header's {name} is not in the checkpoint")
    shape, w = tensors[key]
    cols = shape[-1]
    rows = len(w) // cols
    q = [int(v) for v in re.findall(r"-?\d+", q_text)]
    s = floats(s_text)
    if transposed:  # W_e (d_e, N_V) is held as its transpose: row v is token v's embedding
        w = [w[r * cols + v] for v in range(cols) for r in range(rows)]
        rows, cols = cols, rows
    if len(q) != rows * cols or len(s) != rows:
        sys.exit(f"FAIL: {name} has {len(q)} codes and {len(s)} scales, the checkpoint's "
                 f"matrix is {rows} x {cols}")
    for i in range(rows):
        row = w[i * cols:(i + 1) * cols]
        amax = max(abs(v) for v in row)
        if abs(s[i] - amax / 127) > 1e-6 * amax / 127:
            sys.exit(f"FAIL: {name} row {i}: scale {s[i]!r}, max|w| / 127 is {amax / 127!r}")
        for j, v in enumerate(row):
            code = q[i * cols + j]
            if abs(code) > 127 or abs(code * s[i] - v) > s[i] / 2 * (1 + 1e-5) + 1e-30:
                sys.exit(f"FAIL: {name} ({i}, {j}): {v!r} is coded {code} · {s[i]!r}")
    matrices.add(key)
    weights += len(q)
# the float tensors (biases, norms, W_p): exactly the checkpoint's
rest = re.sub(r"\{\.q = \{[^}]*\}, \.scale = \{[^}]*\}\}", "", body)
got = floats(rest)
expected = [v for k, (_, values) in tensors.items() if k not in matrices for v in values]
if sorted(got) != sorted(expected):
    sys.exit(f"FAIL: the header's {len(got)} float parameters differ from the checkpoint's "
             f"{len(expected)}")
print(f"ok: {weights} int8 weights in {len(matrices)} matrices within half a step of the "
      f"checkpoint's, each row's scale max|w| / 127; {len(got)} float parameters exactly")
