"""Runs a firmware image under qemu-system-arm and checks it; with --host, against the host build.

  run_qemu.py --qemu Q --machine M --device FW.elf [--host EXE] [--expect-status N]
              [--expect REGEX] [--timeout S] [--rtol R] [--atol A] [--tolerance WORD A R]...

The device's output comes through semihosting (QEMU prints it on stderr). Lines starting with
`info` are measurements of the device (stack, instructions) and are printed, not compared. Every
other line must equal the host program's line word for word, except that floats (printed as
IEEE-754 bits, 0x3f800000) may differ by atol + rtol * |host|: the device's scalar kernels and
FMA contraction round differently from the host's SIMD kernels (--tolerance gives the lines
starting with a word their own). QEMU runs with -icount shift=0,
so the instruction counts are deterministic, and under a timeout.
"""
import argparse
import re
import struct
import subprocess
import sys


def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=timeout, text=True)
    except subprocess.TimeoutExpired:
        sys.exit(f"FAIL: timed out after {timeout} s: {' '.join(cmd)}")
    return p.returncode, p.stdout


def as_float(word):
    if re.fullmatch(r"0x[0-9a-f]{8}", word):
        return struct.unpack("<f", struct.pack("<I", int(word, 16)))[0]
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--qemu", required=True)
    ap.add_argument("--machine", required=True)
    ap.add_argument("--device", required=True)
    ap.add_argument("--host")
    ap.add_argument("--expect-status", type=int, default=0)
    ap.add_argument("--expect")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--rtol", type=float, default=1e-4)
    ap.add_argument("--atol", type=float, default=1e-4)
    ap.add_argument("--tolerance", nargs=3, action="append", default=[],
                    metavar=("WORD", "ATOL", "RTOL"),
                    help="lines whose first word is WORD: floats within ATOL + RTOL * |host|")
    a = ap.parse_args()
    tolerance = {w: (float(at), float(rt)) for w, at, rt in a.tolerance}

    status, out = run([a.qemu, "-M", a.machine, "-display", "none", "-serial", "null",
                       "-monitor", "none", "-semihosting-config", "enable=on,target=native",
                       "-icount", "shift=0", "-kernel", a.device], a.timeout)
    sys.stdout.write(out)
    if status != a.expect_status:
        sys.exit(f"FAIL: the device exited with {status}, expected {a.expect_status}")
    if a.expect and not re.search(a.expect, out, re.M):
        sys.exit(f"FAIL: the device's output lacks /{a.expect}/")
    if not a.host:
        print(f"ok: exit status {status}")
        return

    host_status, host_out = run([a.host], a.timeout)
    if host_status != 0:
        sys.stdout.write(host_out)
        sys.exit(f"FAIL: the host program exited with {host_status}")
    dev = [l.split() for l in out.splitlines() if l and not l.startswith("info")]
    host = [l.split() for l in host_out.splitlines() if l and not l.startswith("info")]
    if len(dev) != len(host):
        sys.exit(f"FAIL: {len(dev)} lines from the device, {len(host)} from the host")
    floats, worst_abs, worst_rel = 0, 0.0, 0.0
    for i, (d, h) in enumerate(zip(dev, host)):
        if len(d) != len(h):
            sys.exit(f"FAIL: line {i + 1}: device {' '.join(d)!r}, host {' '.join(h)!r}")
        atol, rtol = tolerance.get(h[0], (a.atol, a.rtol))
        for j, (dw, hw) in enumerate(zip(d, h)):
            df, hf = as_float(dw), as_float(hw)
            if df is None or hf is None:
                if dw != hw:
                    sys.exit(f"FAIL: line {i + 1} ({h[0]}), word {j + 1}: device {dw}, host {hw}")
                continue
            floats += 1
            err = abs(df - hf)
            worst_abs = max(worst_abs, err)
            worst_rel = max(worst_rel, err / max(abs(hf), 1e-30))
            if not err <= atol + rtol * abs(hf):
                sys.exit(f"FAIL: line {i + 1} ({h[0]}), word {j + 1}: device {df!r}, host {hf!r}")
    print(f"ok: {len(dev)} lines equal the host's; {floats} floats within "
          f"{a.atol:g} + {a.rtol:g}·|host| (largest difference {worst_abs:.3g} absolute, "
          f"{worst_rel:.3g} relative)")


if __name__ == "__main__":
    main()
