"""Flash and RAM of a firmware image, and no exception support linked into it. Flash is split: the board and newlib baseline (the selftest image,
which links the same startup, semihosting and libc but no model), the weights (one object in
.rodata, when --weights names it), and the rest: typeformer's code and the program's own.

  sizes.py --size SIZE --objdump OBJDUMP --baseline BASE.elf --elf FW.elf [--weights SYMBOL]
           [--max-code-bytes N] [--no-double] [--max-ram-bytes N] [--max-main-ram-bytes N]

Fails when the image links C++ exception support (__cxa_throw, the personality routine, the
unwinder): the core's device paths return a status instead. (The heap cannot be checked this way,
since the board's trap defines malloc; the trap itself fails a run that allocates.) With
--no-double, also fails when it links double-precision arithmetic (libgcc's soft-float routines
__aeabi_d*, __*df3, or libm's double functions sqrt, pow, log, exp). --max-ram-bytes bounds the
RAM the linked image takes, stacks included (.data + .bss + .ram2 + .stack + .stack_main: the
map's figure, beside the deployment's static_assert); --max-main-ram-bytes the main RAM's share
(.data + .bss + .stack_main: the STM32F405's 128 KiB SRAM without the CCM).
"""
import argparse
import re
import subprocess
import sys

FLASH = (".text", ".rodata", ".ARM.exidx", ".init_array", ".preinit_array", ".fini_array",
         ".data")  # .data's initial values are stored in flash
RAM = (".data", ".bss", ".ram2")  # .ram2: the second RAM region's objects (the STM32F405's CCM)


def sections(size, elf):
    out = subprocess.run([size, "-A", elf], check=True, capture_output=True, text=True).stdout
    s = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 3 and f[0].startswith(".") and f[1].isdigit():
            s[f[0]] = int(f[1])
    return s


ap = argparse.ArgumentParser()
ap.add_argument("--size", required=True)
ap.add_argument("--objdump", required=True)
ap.add_argument("--baseline", required=True)
ap.add_argument("--elf", required=True)
ap.add_argument("--weights")
ap.add_argument("--max-code-bytes", type=int)
ap.add_argument("--no-double", action="store_true")
ap.add_argument("--max-ram-bytes", type=int)
ap.add_argument("--max-main-ram-bytes", type=int)
a = ap.parse_args()

table = subprocess.run([a.objdump, "-t", "-C", a.elf], check=True, capture_output=True,
                       text=True).stdout
exceptions = sorted(set(re.findall(
    r"\s(__cxa_throw|__cxa_allocate_exception|__cxa_begin_catch|__gxx_personality_v0|"
    r"_Unwind_\w+|__aeabi_unwind_cpp_pr\d)\s*$", table, re.M)))
if exceptions:
    sys.exit(f"FAIL: {a.elf} links exception support: {' '.join(exceptions)}")

if a.no_double:
    double = sorted(set(re.findall(
        r"\s(__aeabi_d\w+|__aeabi_[a-z0-9]*2d|__\w+df[23]|sqrt|pow|log|exp)\s*$", table, re.M)))
    if double:
        sys.exit(f"FAIL: {a.elf} links double-precision arithmetic: {' '.join(double)}")
    print(f"ok: {a.elf} links no double-precision arithmetic")

base, fw = sections(a.size, a.baseline), sections(a.size, a.elf)
flash = sum(fw.get(k, 0) for k in FLASH)
baseline = sum(base.get(k, 0) for k in FLASH)
weights = 0
if a.weights:
    rows = [l for l in table.splitlines() if re.search(r"\s" + re.escape(a.weights) + r"<", l)]
    weights = int(rows[0].split()[4], 16) if rows else 0
code = flash - baseline - weights
ram = sum(fw.get(k, 0) for k in RAM)
print(f"flash {flash} B = baseline {baseline} B (board, newlib) + weights {weights} B + "
      f"library and program {code} B; RAM {ram} B (.data {fw.get('.data', 0)} + "
      f".bss {fw.get('.bss', 0)} + .ram2 {fw.get('.ram2', 0)}), plus the declared stack "
      f"{fw.get('.stack', 0) + fw.get('.stack_main', 0)} B (its high-water mark: the run's output)")
if a.max_code_bytes is not None and code > a.max_code_bytes:
    sys.exit(f"FAIL: library and program take {code} B of flash, more than {a.max_code_bytes}")
ram_total = ram + fw.get(".stack", 0) + fw.get(".stack_main", 0)
if a.max_ram_bytes is not None and ram_total > a.max_ram_bytes:
    sys.exit(f"FAIL: the image takes {ram_total} B of RAM with its stacks, more than "
             f"{a.max_ram_bytes}")
main_ram = fw.get(".data", 0) + fw.get(".bss", 0) + fw.get(".stack_main", 0)
if a.max_main_ram_bytes is not None and main_ram > a.max_main_ram_bytes:
    sys.exit(f"FAIL: the image takes {main_ram} B of the main RAM, more than "
             f"{a.max_main_ram_bytes}")
if a.max_ram_bytes is not None or a.max_main_ram_bytes is not None:
    print(f"ok: RAM {ram_total} B with the stacks, of which the main RAM {main_ram} B")
