"""Every command of README.md's and docs/*.md's shell blocks (```sh) works after the README's two
commands (`bash .ci/example`, `bash .ci/test`), checked here in one of three ways:

  run      the tools' commands, verbatim, in a folder laid out as the repository is after
           `bash .ci/example`: build/release/tools is this build's tools, build/release/npm its
           npm packages (GPT-2's files), typeformer-run/ a checkpoint made first as .ci/example
           makes it (tiny, a few steps: the main job's minute is not repeated). A command must
           exit 0, write no "error" on stderr, and print what its `# comment` says when the
           comment is quoted output (`echo … | typeformer-tokenize … # 72 101 …`). A
           typeformer-train command gets `--steps 3 --seconds 0 …` appended (the tools take an
           option's last value), and `--model tiny` when it names no model, to keep it short.
           A file a page names as the user's own (my_text.txt) is a licence text here.
  checked  commands of CI's steps (cmake workflows, ctest, the repository's scripts): the preset,
           script or file they name exists (and the bridge's subcommand is in its --help); CI
           runs them (.ci/test).
  listed   commands that need what a user brings (GPT-2's weights from Hugging Face, their own
           program, a PNG converter): printed with the reason and the test that covers the tool.

A command that fits none of the rules fails the test: add a rule here when a page gets one.

  docs_commands_test.py <tools dir> <npm dir> <repository> <work dir>
"""
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

tools, npm, repo, work = (os.path.abspath(a) for a in sys.argv[1:5])
pages = [os.path.join(repo, "README.md")] + sorted(
    os.path.join(repo, "docs", f) for f in os.listdir(os.path.join(repo, "docs"))
    if f.endswith(".md"))


def commands(path):
    """(line number, command, comment) of each shell block's commands, continuations joined."""
    out, block, pending = [], False, None
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            s = line.rstrip("\n")
            if s.startswith("```"):
                block = s.strip() in ("```sh", "```bash") if not block else False
                continue
            if not block or not s.strip():
                continue
            if pending:
                pending[1] += " " + s.strip()
            else:
                pending = [n, s.strip()]
            if pending[1].endswith("\\"):
                pending[1] = pending[1][:-1].rstrip()
                continue
            if pending[1].endswith("|"):  # a pipe goes on on the next line
                continue
            text, comment = pending[1], ""
            m = re.search(r"\s#\s?(.*)$", text)
            if m and not text.lstrip().startswith("#"):
                text, comment = text[:m.start()].rstrip(), m.group(1).strip()
            if text and not text.startswith("#"):
                out.append((pending[0], text, comment))
            pending = None
    return out


presets = json.load(open(os.path.join(repo, "CMakePresets.json")))
preset_names = {kind: {p["name"] for p in presets.get(kind, [])}
                for kind in ("configurePresets", "buildPresets", "testPresets", "workflowPresets")}

# ---- the folder as `bash .ci/example` leaves it ----
shutil.rmtree(work, ignore_errors=True)
os.makedirs(os.path.join(work, "build", "release"))
os.symlink(tools, os.path.join(work, "build", "release", "tools"))
os.symlink(npm, os.path.join(work, "build", "release", "npm"))
os.symlink(os.path.join(repo, ".ci"), os.path.join(work, ".ci"))
os.symlink(os.path.join(repo, "tools"), os.path.join(work, "tools"))
short = ["--steps", "3", "--seconds", "0", "--eval-every", "0", "--sample-tokens", "5"]
subprocess.run([os.path.join(tools, "typeformer-train"), "--out", "typeformer-run", "--model",
                "tiny"] + short, cwd=work, check=True, stdout=subprocess.DEVNULL)
shutil.copy("/usr/share/common-licenses/GPL-3", os.path.join(work, "my_text.txt"))
bridge_help = subprocess.run(["/usr/bin/python3", os.path.join(repo, "tools", "typeformer_torch.py"),
                              "--help"], capture_output=True, text=True)
bridge_help = bridge_help.stdout + bridge_help.stderr

# Each rule: (pattern of the command, how, what it does with it). `listed` carries the reason.
LISTED = {
    r"--hf-gpt2 \S*model\.safetensors": "needs GPT-2 small's weights from Hugging Face (no "
                                        "network here); tools.gpt2_presets runs this command "
                                        "on a random GPT-2 small written in Hugging Face's "
                                        "layout",
    r"--nanogpt gpt\.safetensors": "needs the user's nanoGPT checkpoint, converted; "
                                   "tools.gpt_import runs this command on shakespeare_char "
                                   "checkpoints of random weights",
    r"--resume model\.ckpt": "resumes what from-nanogpt --training made of the user's "
                             "nanoGPT run; tools.gpt_import resumes one",
    r"^python train\.py ": "nanoGPT's own command, in its repository",
    r"^python -c \"from transformers": "Hugging Face transformers, not a dependency",
    r"^torchrun .* train\.py$": "the user's DDP program; tests/interop runs one on 2 ranks",
    r"^PYTHONPATH=tools /usr/bin/python3 my_training\.py$": "the user's own program; "
                                                           "typeformer_torch imports (checked)",
    r"^rsvg-convert ": "librsvg2-bin, not a dependency; the SVG is checked by tools.workflow",
    r"^(OMP_WAIT_POLICY=passive )?perf (record|report) ": "a profiling recipe over "
                                                          "bench_models (built by "
                                                          "`cmake --build --preset release "
                                                          "--target bench_models`)",
    r"^objdump .*bench_models": "a profiling recipe over bench_models",
}

failures, ran, checked, listed = [], 0, 0, 0


def fail(where, cmd, why):
    failures.append(f"{where}: `{cmd}`: {why}")


def check_cmake(where, cmd):
    args = shlex.split(cmd)
    kind = {"--workflow": "workflowPresets", "--build": "buildPresets"}
    if args[0] == "cmake":
        for flag, k in kind.items():
            if flag in args and "--preset" in args:
                name = args[args.index("--preset") + 1]
                if name not in preset_names[k]:
                    fail(where, cmd, f"no {k[:-7]} preset '{name}' in CMakePresets.json")
                return
        if args[1:2] == ["--preset"]:
            if args[2] not in preset_names["configurePresets"]:
                fail(where, cmd, f"no configure preset '{args[2]}'")
            return
    if args[0] == "ctest":
        if "--preset" in args and args[args.index("--preset") + 1] not in preset_names[
                "testPresets"]:
            fail(where, cmd, "no such test preset")
        if "-L" in args:
            label = args[args.index("-L") + 1]
            if not os.path.isdir(os.path.join(repo, "tests", label)):
                fail(where, cmd, f"no tests/{label} (ctest labels are tests/ folders)")
        return
    fail(where, cmd, "a cmake/ctest command this test does not know")


for page in pages:
    rel = os.path.relpath(page, repo)
    for line, cmd, comment in commands(page):
        where = f"{rel}:{line}"
        reason = next((why for pat, why in LISTED.items() if re.search(pat, cmd)), None)
        if reason:
            print(f"listed   {where}: {cmd}\n         ({reason})")
            listed += 1
            if cmd.startswith("PYTHONPATH=tools"):
                r = subprocess.run(["/usr/bin/python3", "-c", "import typeformer_torch"],
                                   env=dict(os.environ, PYTHONPATH=os.path.join(repo, "tools")),
                                   capture_output=True, text=True)
                if r.returncode != 0:
                    fail(where, cmd, "typeformer_torch does not import: " + r.stderr[-300:])
            continue
        if cmd.startswith(("cmake ", "ctest ")):
            check_cmake(where, cmd)
            print(f"checked  {where}: {cmd}")
            checked += 1
            continue
        m = re.match(r"^/usr/bin/python3 tools/typeformer_torch\.py (\S+)", cmd)
        if m:
            if f"typeformer_torch.py {m.group(1)} " not in bridge_help:
                fail(where, cmd, f"typeformer_torch.py --help has no '{m.group(1)}'")
            print(f"checked  {where}: {cmd}")
            checked += 1
            continue
        if re.match(r"^bash \.ci/(example|test)$", cmd) or re.match(
                r"^/usr/bin/python3 tests/\S+\.py", cmd):
            script = shlex.split(cmd)[1]
            if not os.path.isfile(os.path.join(repo, script)):
                fail(where, cmd, f"{script} does not exist")
            print(f"checked  {where}: {cmd}")
            checked += 1
            continue
        if "build/release/tools/typeformer-" not in cmd:
            fail(where, cmd, "no rule for this command in tools/docs_commands_test.py")
            continue
        run = cmd
        if "typeformer-train" in cmd:
            run += " " + " ".join(short) + ("" if "--model" in cmd else " --model tiny")
        try:
            r = subprocess.run(["bash", "-o", "pipefail", "-c", run], cwd=work,
                               capture_output=True, text=True, errors="replace", timeout=120)
        except subprocess.TimeoutExpired:
            fail(where, cmd, "did not finish in 120 s")
            continue
        ran += 1
        print(f"run      {where}: {cmd}  -> exit {r.returncode}")
        if r.returncode != 0 or re.search(r"\berror\b", r.stderr, re.I):
            fail(where, cmd, f"exit {r.returncode}: {r.stderr.strip()[-500:]}")
        elif cmd.startswith("echo ") and comment and r.stdout.strip() != comment:
            fail(where, cmd, f"printed '{r.stdout.strip()[:200]}', the page says '{comment}'")

print(f"\n{ran} run, {checked} checked, {listed} listed; {len(failures)} failed")
for f in failures:
    print("FAILED " + f)
sys.exit(1 if failures else 0)
