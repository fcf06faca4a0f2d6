#!/usr/bin/env python3
"""The Python side of one interop test in one process: torch is imported once (about 1.4 s of
CPU each time), not once per command.

  jobs.py <job file>

Each line of the job file is a command, run in order in this process, as if its script had been
run with those arguments:
  gpt_ref <command> <args>...        tests/interop/gpt_ref.py (the reference nanoGPT / HF GPT-2)
  torch_bridge_ref <args>...         tests/interop/torch_bridge_ref.py
  ddp_ref launch <args>...           tests/interop/ddp_ref.py (torchrun starts its 2 ranks)
  bridge <args>...                   tools/typeformer_torch.py, the converter under test (its
                                     command line: argparse and all)
  fails <file> bridge <args>...      the command must fail; its message goes to <file>
Arguments are split as a shell would (shlex). The first command that fails (or, under `fails`,
succeeds) ends the run with its line and message and a non-zero exit.
"""
import contextlib
import io
import os
import shlex
import sys
import traceback

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(0, os.path.join(here, "..", "..", "tools"))

import ddp_ref  # noqa: E402
import gpt_ref  # noqa: E402
import torch_bridge_ref  # noqa: E402
import typeformer_torch  # noqa: E402


def bridge(argv):
    """typeformer_torch.py's __main__: its errors are one line, `typeformer_torch.py: ...`."""
    try:
        typeformer_torch.main(argv)
    except (ValueError, KeyError, OSError) as e:
        raise SystemExit("typeformer_torch.py: %s" % e)


COMMANDS = {"gpt_ref": gpt_ref.run, "torch_bridge_ref": torch_bridge_ref.run, "bridge": bridge,
            "ddp_ref": ddp_ref.run}


def main(job_file):
    with open(job_file) as f:
        lines = [line.strip() for line in f if line.strip()]
    for line in lines:
        argv = shlex.split(line)
        err = None
        if argv[0] == "fails":
            err, argv = argv[1], argv[2:]
        message = None
        captured = io.StringIO()
        try:
            with contextlib.redirect_stderr(captured) if err else contextlib.nullcontext():
                COMMANDS[argv[0]](argv[1:])
        except SystemExit as e:
            if e.code not in (None, 0):
                message = str(e.code)
        except Exception:  # noqa: BLE001 (the reference's own failures: a traceback)
            message = traceback.format_exc()
        if err is None and message is not None:
            sys.exit("jobs.py: `%s` failed:\n%s" % (line, message))
        if err is not None:
            if message is None:
                sys.exit("jobs.py: `%s` was accepted, but it must fail" % line)
            with open(err, "w") as f:
                f.write(captured.getvalue() + message + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
