"""Checks from the ELF where the exported weights landed: in .rodata, inside the flash region
(the CODE region of the memory.ld that memory_ld wrote from the board's type), and not copied to
RAM (.data stays small); with --absent, that other objects (e.g. the float weights a q8 model was
quantized from) are not in the image at all.

  check_flash.py --objdump OBJDUMP --memory-ld memory.ld --elf FW.elf --symbol tiny_trained
                 --min-bytes N [--absent NAME...]
"""
import argparse
import re
import subprocess
import sys

ap = argparse.ArgumentParser()
ap.add_argument("--objdump", required=True)
ap.add_argument("--memory-ld", required=True)
ap.add_argument("--elf", required=True)
ap.add_argument("--symbol", required=True)
ap.add_argument("--min-bytes", type=int, required=True)
ap.add_argument("--absent", nargs="*", default=[])
a = ap.parse_args()

memory = open(a.memory_ld).read()
code = re.search(r'REGION_ALIAS\("CODE", (\w+)\)', memory).group(1)
origin, length = re.search(rf"\n\s*{code}\s+\(\w+\)\s*:\s*ORIGIN = (0x[0-9a-f]+), LENGTH = (\d+)",
                           memory).groups()
FLASH_START, FLASH_END = int(origin, 16), int(origin, 16) + int(length)

table = subprocess.run([a.objdump, "-t", "-C", a.elf], check=True, capture_output=True,
                       text=True).stdout
# 00003780 g     O .rodata	0001de00 tiny_trained<firmware::...>
rows = [l for l in table.splitlines() if re.search(r"\s" + re.escape(a.symbol) + r"<", l)]
if len(rows) != 1:
    sys.exit(f"FAIL: expected one object {a.symbol}<...> in {a.elf}, found {len(rows)}")
for name in a.absent:  # NAME<...> (a variable template) or NAME itself
    found = [l for l in table.splitlines() if re.search(r"\s" + re.escape(name) + r"(<|$)", l)]
    if found:
        sys.exit(f"FAIL: {a.elf} holds {name}, which should not be linked: {found[0]}")
fields = rows[0].split()
address, section, size = int(fields[0], 16), fields[3], int(fields[4], 16)
print(rows[0])
if section != ".rodata":
    sys.exit(f"FAIL: {a.symbol} is in {section}, not .rodata")
if not (FLASH_START <= address and address + size <= FLASH_END):
    sys.exit(f"FAIL: {a.symbol} at {address:#x}+{size} is outside the flash region")
if size < a.min_bytes:
    sys.exit(f"FAIL: {a.symbol} has {size} bytes, the model's parameters take {a.min_bytes}")
headers = subprocess.run([a.objdump, "-h", a.elf], check=True, capture_output=True,
                         text=True).stdout
data = [int(l.split()[2], 16) for l in headers.splitlines() if re.match(r"\s*\d+ \.data\s", l)]
if data and data[0] >= size:
    sys.exit(f"FAIL: .data holds {data[0]} bytes: the weights would be copied to RAM")
print(f"ok: {a.symbol} ({size} bytes) is in .rodata at {address:#x}, in flash; "
      f".data holds {data[0] if data else 0} bytes" +
      (f"; not linked: {', '.join(a.absent)}" if a.absent else ""))
