"""What the tools' Python tests share: running a tool and checking what it printed.

  run(*cmd, ok=True)      the tool's CompletedProcess; exits the test when it failed (ok) or was
                          accepted (ok=False)
  expect(cond, what, out) exits the test with `what` and the output when cond is false
  one_line(r, *needles)   the tool's stderr is one line naming every needle
  ids(r, key="ids")       the ids of the tool's `key: 1 2 3` line (typeformer-generate --ids)
  module(name, path)      a Python file imported by its path (gpt_ref.py, typeformer_torch.py)
"""
import importlib.util
import re
import subprocess
import sys


def run(*cmd, ok=True):
    r = subprocess.run([str(c) for c in cmd], capture_output=True, encoding="utf-8",
                       errors="replace", timeout=300)
    if ok and r.returncode != 0:
        sys.exit("failed (%d): %s\n%s\n%s" % (r.returncode, " ".join(map(str, cmd)), r.stdout, r.stderr))
    if not ok and r.returncode == 0:
        sys.exit("accepted: %s\n%s" % (" ".join(map(str, cmd)), r.stdout))
    return r


def expect(cond, what, output):
    if not cond:
        sys.exit("%s:\n%s" % (what, output))


def one_line(r, *needles):
    lines = r.stderr.strip().split("\n")
    expect(len(lines) == 1 and all(n in lines[0] for n in needles),
           "not one line naming %s" % (needles,), r.stderr)


def ids(r, key="ids"):
    m = re.search(r"(?:^|\n)%s: ([0-9 ]*)" % key, r.stderr)
    if not m:
        sys.exit("no '%s:' in the tool's report:\n%s" % (key, r.stderr))
    return [int(t) for t in m.group(1).split()]


def module(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m
