"""For each line `// <code>  ❌ <why>` of an example: uncomment it alone, compile, and require that
compilation fails and that every `name<N>` the comment mentions appears in the diagnostic's first
error line. Usage: rejected_lines.py <c++ compiler> <example.cpp> <include dir> <work dir>"""
import pathlib
import re
import subprocess
import sys

cxx, source, include, work = sys.argv[1:5]
work = pathlib.Path(work)
work.mkdir(parents=True, exist_ok=True)
lines = pathlib.Path(source).read_text().splitlines(keepends=True)
pattern = re.compile(r"^(\s*)// (.*;)\s+❌ (.*)$")
cases = 0
for i, line in enumerate(lines):
    m = pattern.match(line.rstrip("\n"))
    if not m:
        continue
    cases += 1
    indent, code, why = m.groups()
    variant = lines[:i] + [indent + code + "\n"] + lines[i + 1 :]
    path = work / f"case{cases}.cpp"
    path.write_text("".join(variant))
    r = subprocess.run([cxx, "-std=c++20", "-fsyntax-only", "-I" + include, str(path)],
                       capture_output=True, text=True)
    if r.returncode == 0:
        sys.exit(f"rejected line compiled: {code}")
    first = next((l for l in r.stderr.splitlines() if "error:" in l), "")
    # g++ and clang both name the dimensions on the first error line (shape_error<...>)
    for dim in re.findall(r"[A-Za-z_]+<\d+>", why):
        if dim not in first:
            sys.exit(f"diagnostic for `{code}` does not name {dim}:\n{r.stderr}")
    print(f"rejected as expected ({len(r.stderr.splitlines())} lines): {code}\n  {first}")
if cases == 0:
    sys.exit(f"no ❌ lines in {source}")
