#!/usr/bin/python3
"""How long each example and tool takes to compile, from a build's compile_commands.json.

    /usr/bin/python3 bench/compile_times.py [build/ci] [--runs 3] [--filter examples/]

Runs each translation unit's own compile command (the build's flags: the `ci` preset's are -O2
-g0 -march=native -Werror) one at a time, writing the object to a temporary file so the build
tree is untouched, and prints a Markdown table of the fastest of --runs wall-clock times (on a
shared machine neighbours only ever slow a compile down). Nothing else should run meanwhile.
"""
import argparse
import json
import os
import pathlib
import shlex
import subprocess
import sys
import tempfile
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build", nargs="?", default="build/ci")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--filter", action="append",
                    help="path prefixes relative to the source tree (default: examples/ tools/)")
    a = ap.parse_args()
    prefixes = a.filter or ["examples/", "tools/"]
    db = pathlib.Path(a.build) / "compile_commands.json"
    if not db.exists():
        sys.exit(f"compile_times.py: no {db} (configure with CMAKE_EXPORT_COMPILE_COMMANDS=ON)")
    root = pathlib.Path(__file__).resolve().parent.parent
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for e in json.loads(db.read_text()):
            rel = os.path.relpath(e["file"], root)
            if not rel.startswith(tuple(prefixes)):
                continue
            args = e["arguments"] if "arguments" in e else shlex.split(e["command"])
            out = os.path.join(tmp, "x.o")
            args = [out if args[i - 1] == "-o" else x for i, x in enumerate(args)]
            times = []
            for _ in range(a.runs):
                t0 = time.monotonic()
                r = subprocess.run(args, cwd=e["directory"], capture_output=True, text=True)
                times.append(time.monotonic() - t0)
                if r.returncode != 0:
                    sys.exit(f"compile_times.py: {rel} failed to compile:\n{r.stderr}")
            flags = " ".join(x for x in args if x.startswith(("-O", "-g", "-march", "-fopenmp")))
            rows.append((rel, min(times), max(times), flags))
    if not rows:
        sys.exit(f"compile_times.py: nothing under {prefixes} in {db}")
    print("| translation unit | fastest | slowest | flags |")
    print("|---|---:|---:|---|")
    for rel, lo, hi, flags in rows:
        print(f"| `{rel}` | {lo:.1f} s | {hi:.1f} s | `{flags}` |")


if __name__ == "__main__":
    main()
