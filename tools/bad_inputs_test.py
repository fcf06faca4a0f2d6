"""The tools' bad inputs, row by row, from the table in docs/errors.md ("Command-line tools: bad
inputs"): each row's command must exit with its code within 10 s (no hang) and print its message
on stderr, and the run folder $RUN (a checkpoint, loss.csv and loss.svg made here first) must be
byte for byte what it was after every row (a refused run loses nothing). Then an interrupted run:
SIGINT to a running typeformer-train saves a checkpoint, exits 130, and the checkpoint resumes.

  bad_inputs_test.py <tools dir> <docs/errors.md> <work dir>

Placeholders in the table: $RUN (a run folder: model.ckpt, loss.csv, loss.svg), $CKPT
($RUN/model.ckpt), $WEIGHTS (a safetensors file without training state), $FIFO, $LOOP (a
symbolic link to itself), $DIR (an empty folder), $EMPTY (an empty file), $TEXT (the GPL-3 text), $BADBPE (a merges file that repeats a
merge), $WORK; `<<< text` at the end of a command is its stdin.
"""
import hashlib
import os
import re
import shlex
import shutil
import signal
import struct
import subprocess
import sys
import time

tools, table, work = sys.argv[1], sys.argv[2], sys.argv[3]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
text = "/usr/share/common-licenses/GPL-3"
tool_path = {
    name: os.path.join(tools, "typeformer-" + name)
    for name in ("train", "generate", "tokenize", "attention", "export-header")
}

# ---- fixtures ----
run_dir = os.path.join(work, "run")
subprocess.run([tool_path["train"], text, "--model", "tiny", "--steps", "3", "--seconds", "0",
                "--eval-every", "0", "--out", run_dir, "--sample-tokens", "0"], check=True,
               stdout=subprocess.DEVNULL)
weights = os.path.join(work, "plain.safetensors")
header = b'{"x":{"dtype":"F32","shape":[1],"data_offsets":[0,4]}}'
with open(weights, "wb") as f:
    f.write(struct.pack("<Q", len(header)) + header + struct.pack("<f", 1.5))
fifo = os.path.join(work, "fifo")
os.mkfifo(fifo)
empty_dir = os.path.join(work, "dir")
os.makedirs(empty_dir)
loop = os.path.join(work, "loop")
os.symlink("loop", loop)
empty = os.path.join(work, "empty")
open(empty, "w").close()
bad_bpe = os.path.join(work, "bad.bpe")
with open(bad_bpe, "w") as f:
    f.write("typeformer-bpe 1\nmerges 2\n104 105\n104 105\n")
values = {"$RUN": run_dir, "$CKPT": os.path.join(run_dir, "model.ckpt"), "$WEIGHTS": weights,
          "$FIFO": fifo, "$LOOP": loop, "$DIR": empty_dir, "$EMPTY": empty, "$TEXT": text,
          "$BADBPE": bad_bpe, "$WORK": work}


def substitute(s):
    for k in sorted(values, key=len, reverse=True):
        s = s.replace(k, values[k])
    return s


def snapshot():
    return {name: hashlib.sha256(open(os.path.join(run_dir, name), "rb").read()).hexdigest()
            for name in sorted(os.listdir(run_dir))}


before = snapshot()
assert set(before) == {"model.ckpt", "loss.csv", "loss.svg"}, before

# ---- the table ----
doc = open(table, encoding="utf-8").read()
section = doc.split("## Command-line tools: bad inputs", 1)
if len(section) != 2:
    sys.exit("FAIL: no '## Command-line tools: bad inputs' section in " + table)
rows = []
for line in section[1].split("\n## ", 1)[0].splitlines():
    cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
    if len(cells) != 4 or cells[0] in ("tool", "---") or set(cells[0]) <= set("-"):
        continue
    rows.append([c[1:-1] if c.startswith("`") and c.endswith("`") else c for c in cells])
if len(rows) < 30:
    sys.exit(f"FAIL: only {len(rows)} rows in the table")

failures = []
t0 = time.time()
for tool, command, code, message in rows:
    command = command.replace("\\|", "|")
    message = substitute(message.replace("\\|", "|"))
    stdin = None
    full = "> /dev/full" in command
    command = command.replace("> /dev/full", "")
    if "<<<" in command:
        command, stdin = command.split("<<<", 1)
        stdin = shlex.split(stdin)[0] if stdin.strip() else ""
    argv = [tool_path[tool]] + [substitute(a) for a in shlex.split(command)]
    stdout = open("/dev/full", "w") if full else subprocess.PIPE
    try:
        p = subprocess.run(argv, input=(stdin or "").encode(), stdout=stdout,
                           stderr=subprocess.PIPE, timeout=10, cwd=work)
    except subprocess.TimeoutExpired:
        failures.append(f"{tool} {command}: no answer in 10 s (a hang)")
        continue
    err = p.stderr.decode(errors="replace")
    if str(p.returncode) != code or message not in err:
        failures.append(f"{tool} {command}: exit {p.returncode} (expected {code}), stderr:\n"
                        f"{err}  expected to contain: {message}")
    if snapshot() != before:
        failures.append(f"{tool} {command}: changed the files of $RUN")
        before = snapshot()
print(f"{len(rows)} rows in {time.time() - t0:.1f}s")

# ---- an interrupted run keeps its work ----
live = os.path.join(work, "live")
p = subprocess.Popen([tool_path["train"], text, "--model", "tiny", "--seconds", "0", "--steps",
                      "0", "--eval-every", "1000", "--save-every", "5", "--out", live],
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
deadline = time.time() + 30
while not os.path.exists(os.path.join(live, "model.ckpt")) and time.time() < deadline:
    time.sleep(0.05)
time.sleep(0.3)
p.send_signal(signal.SIGINT)
try:
    out, err = p.communicate(timeout=30)
except subprocess.TimeoutExpired:
    p.kill()
    out, err = p.communicate()
    failures.append("typeformer-train did not stop on SIGINT")
err = err.decode(errors="replace")
m = re.search(r"interrupted at step (\d+): saved", err)
if p.returncode != 130 or not m:
    failures.append(f"SIGINT: exit {p.returncode} (expected 130), stderr:\n{err}")
else:
    step = int(m.group(1))
    csv = open(os.path.join(live, "loss.csv")).read().splitlines()
    r = subprocess.run([tool_path["train"], text, "--resume", os.path.join(live, "model.ckpt"),
                        "--steps", str(step + 2), "--seconds", "0", "--out", live,
                        "--sample-tokens", "0"], capture_output=True, text=True, timeout=60)
    if r.returncode != 0 or f"resuming {live}/model.ckpt at step {step}" not in r.stdout or \
            f"{step + 2} steps" not in r.stdout:
        failures.append(f"resuming the interrupted run ({step} steps) failed: {r.returncode}\n"
                        f"{r.stdout}\n{r.stderr}")
    print(f"SIGINT at step {step}: saved, exit 130, resumed to step {step + 2}; "
          f"loss.csv had {len(csv) - 1} rows")

if failures:
    print("\n\n".join(failures))
    sys.exit(f"FAIL: {len(failures)} of {len(rows) + 1} checks")
print(f"ok: {len(rows)} bad inputs answered as documented, none changed $RUN; SIGINT saves")
