"""Checks a header of typeformer-export-header against the checkpoint it came from: the same
parameter values (the checkpoint's model.* tensors, read from the safetensors file here), every
one exactly. The header stores each tensor in memory order and the file in row-major order, so
the values are compared as sorted lists, per whole model.

  export_header_check.py model.ckpt weights.hpp
"""
import json
import re
import struct
import sys

ckpt, header = sys.argv[1], sys.argv[2]
with open(ckpt, "rb") as f:
    n = struct.unpack("<Q", f.read(8))[0]
    meta = json.loads(f.read(n))
    data = f.read()
expected = []
for name, t in meta.items():
    if not name.startswith("model."):
        continue
    if t["dtype"] != "F32":
        sys.exit(f"FAIL: {name} is {t['dtype']}, expected F32")
    begin, end = t["data_offsets"]
    expected += struct.unpack(f"<{(end - begin) // 4}f", data[begin:end])
text = open(header).read()
body = re.search(r"values\[\] = \{(.*?)\};", text, re.S)
if not body:
    sys.exit("FAIL: no values[] in the header")
got = [float.fromhex(w.rstrip("f")) for w in re.findall(r"-?0x[0-9a-fA-Fp.+-]+f", body.group(1))]
if len(got) != len(expected):
    sys.exit(f"FAIL: {len(got)} values in the header, {len(expected)} in the checkpoint")
if sorted(got) != sorted(expected):
    sys.exit("FAIL: the header's values differ from the checkpoint's")
print(f"ok: {len(got)} parameters, exactly the checkpoint's")
