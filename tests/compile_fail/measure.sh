#!/usr/bin/env bash
# Measures the compile-fail cases' diagnostics for docs/diagnostics.md.
#
#   tests/compile_fail/measure.sh                       # print the markdown table
#   tests/compile_fail/measure.sh --show <case>         # print one case's whole diagnostic
#   tests/compile_fail/measure.sh --update docs/diagnostics.md
#        rewrite, in that file, the table between <!-- measure.sh:table --> and
#        <!-- measure.sh:end -->, and the example between <!-- measure.sh:example <case> -->
#        and <!-- measure.sh:end -->
#   CXX=g++ CLANG=clang++-14 tests/compile_fail/measure.sh   # the compilers (these are the defaults)
#   CXXFLAGS='-DTYPEFORMER_FORCE_SCALAR=1' tests/compile_fail/measure.sh
#
# The table has, per case: the mistake (the first sentence of its `// Mistake:` line), the number
# of lines g++ prints (and the case's budget, `// max-lines:`), the same for clang
# (`// clang-max-lines:`), and g++'s first error line. The command is the harness's diagnostic
# setup (check.cmake): syntax only, no colour, no line wrapping, C locale (ASCII quotes), run from
# this directory with -I../../include so that paths print short. Boost and xsimd come from the
# system include path.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cxx="${CXX:-g++}"
clang="${CLANG:-clang++-14}"
read -r -a extra <<<"${CXXFLAGS:-}"
export LC_ALL=C

diagnostic() {  # <case> [compiler]: the whole output for tests/compile_fail/<case>.cpp
    (cd "$here" && "${2:-$cxx}" -std=c++20 "${extra[@]}" -I../../include -fsyntax-only \
        -fdiagnostics-color=never -fmessage-length=0 "$1.cpp" 2>&1 || true)
}

table() {
    printf '| case | mistake | %s lines (budget) | %s lines (budget) | first error line (g++) |\n' \
        "$("$cxx" --version | head -n1 | sed 's/ (.*)//')" "$("$clang" --version | head -n1 | sed 's/Debian //; s/ version//')"
    printf '|---|---|---:|---:|---|\n'
    local src name mistake out lines clines budget cbudget first min="" max=0 cmax=0 n=0
    for src in "$here"/*.cpp; do
        name="$(basename "$src" .cpp)"
        [ "$name" = control_well_shaped ] && continue
        mistake="$(sed -n 's|^// Mistake: ||p' "$src" | head -n1)"
        mistake="${mistake%%. *}"; mistake="${mistake%.}"
        budget="$(sed -n 's|^// max-lines: ||p' "$src" | head -n1)"
        cbudget="$(sed -n 's|^// clang-max-lines: ||p' "$src" | head -n1)"
        out="$(diagnostic "$name")"
        lines="$(printf '%s\n' "$out" | wc -l)"
        clines="$(diagnostic "$name" "$clang" | wc -l)"
        first="$(printf '%s\n' "$out" | grep -m1 'error:' || true)"
        first="${first//|/\\|}"; mistake="${mistake//|/\\|}"  # a `|` would split the cell
        printf '| `%s` | %s | %d (%s) | %d (%s) | `%s` |\n' "$name" "$mistake" "$lines" "$budget" \
            "$clines" "${cbudget:-25}" "$first"
        n=$((n + 1)); max=$((lines > max ? lines : max)); cmax=$((clines > cmax ? clines : cmax))
        if [ -z "$min" ] || [ "$lines" -lt "$min" ]; then min="$lines"; fi
    done
    printf '\n%d cases; g++: %s to %s lines; clang: at most %s lines.\n' "$n" "$min" "$max" "$cmax"
}

update() {  # <markdown file>
    local doc="$1" tmp line case
    tmp="$(mktemp)"
    local skipping=0
    while IFS= read -r line || [ -n "$line" ]; do
        if [ "$skipping" = 1 ]; then
            [ "$line" = '<!-- measure.sh:end -->' ] || continue
            skipping=0
        fi
        printf '%s\n' "$line" >>"$tmp"
        if [ "$line" = '<!-- measure.sh:table -->' ]; then
            table >>"$tmp"; skipping=1
        elif [[ "$line" =~ ^'<!-- measure.sh:example '([A-Za-z0-9_]+)' -->'$ ]]; then
            case="${BASH_REMATCH[1]}"
            { printf '```text\n'; diagnostic "$case" | cat -n; printf '```\n'; } >>"$tmp"
            skipping=1
        fi
    done <"$doc"
    if [ "$skipping" = 1 ]; then
        rm -f "$tmp"; echo "measure.sh: $doc: a block is not closed by <!-- measure.sh:end -->" >&2; exit 1
    fi
    mv "$tmp" "$doc"
}

case "${1:-}" in
    "") table ;;
    --show) diagnostic "${2:?--show needs a case name}" ;;
    --update) update "${2:?--update needs a markdown file}" ;;
    *) echo "usage: $0 [--show <case> | --update <doc.md>]" >&2; exit 2 ;;
esac
