#!/usr/bin/python3
"""Markdown tables from bench_models' JSON output, and the points of the tokens/s plot (stdlib only).

    bench_models --benchmark_min_time=0.2 --benchmark_out=run.json --benchmark_out_format=json
    /usr/bin/python3 bench/report_models.py run.json [--plot-data points.txt] > tables.md
    plot_models points.txt bench/models.svg        # the SVG, drawn with typeformer's io/plot.hpp

One table per libtorch thread count: per configuration and task, typeformer's and libtorch's time,
tokens/s, GFLOP/s (FLOPs by formula: bench_models prints them), % of the all-core peak FMA rate
measured at start-up (or cores × the one-core rate, if higher), allocations per call, and the speedup (libtorch time / ours, both measured
alternately in the same iterations). With --benchmark_repetitions the median aggregate is used,
or with --best each side's fastest repetition (on a shared VM neighbours only ever slow a run
down; the speedup is then libtorch's fastest time over ours').
`--plot-data` writes "series x y" lines: x = log10(parameters), y = tokens/s, for the train step,
the forward pass and decoding at l_max/2, typeformer and libtorch on 2 threads.
"""
import argparse
import json
import math
import sys

CONFIGS = {  # N_V, l_max, L, H, d_e, d_mlp (DESIGN.md; tied W_u)
    "tiny": (64, 32, 2, 2, 32, 128),
    "small": (256, 128, 4, 4, 128, 512),
    "baby": (65, 256, 6, 6, 384, 1536),
    "gpt2": (50257, 1024, 12, 12, 768, 3072),
}


def parameters(cfg):
    n_v, l_max, layers, _, d, f = CONFIGS[cfg]
    per_layer = 4 * d * d + 4 * d + 2 * d * f + f + d + 4 * d  # W_qkv, W_o, b_*, MLP, 2 norms
    return n_v * d + l_max * d + layers * per_layer + 2 * d


def fastest(reps):
    """Each side's counters from its fastest repetition; the speedup of the two fastest."""
    b = dict(min(reps, key=lambda r: r["ours_ms"]))
    timed = [r for r in reps if "torch_ms" in r]
    if timed:
        t = min(timed, key=lambda r: r["torch_ms"])
        b.update({k: v for k, v in t.items() if k.startswith("torch_")})
        b["speedup"] = b["torch_ms"] / b["ours_ms"]
    return b


def load(paths, best=False):
    """Every file's benchmarks, in order; the last file's context, with the highest peak-FMA
    measurements of all the files (a busy machine can only make a measurement of the peak lower,
    so the highest is the machine's)."""
    doc = {"benchmarks": []}
    peaks = {}
    for path in paths:
        with open(path) as f:
            d = json.load(f)
        doc["benchmarks"] += d["benchmarks"]
        doc["context"] = d["context"]
        for k in ("peak_fma_1core_gflops", "peak_fma_all_gflops"):
            if k in d["context"]:
                peaks[k] = max(peaks.get(k, 0.0), float(d["context"][k]))
    doc["context"].update({k: str(v) for k, v in peaks.items()})
    rows = {}  # (task, cfg, p, threads) -> counters
    order = []
    errors = [f"{b['name']}: {b.get('error_message', '?')}"
              for b in doc["benchmarks"] if b.get("error_occurred")]
    reps = {}  # key -> the repetitions' rows (--best)
    for b in doc["benchmarks"]:
        skipped = b.get("error_occurred") or (
            b.get("run_type") == "aggregate" and (best or b.get("aggregate_name") != "median"))
        if skipped:
            continue
        parts = b.get("run_name", b["name"]).split("/")
        if parts[0] not in ("train", "forward", "decode"):
            continue
        task, cfg = parts[0], parts[1]
        p = parts[2] if task == "decode" else ""
        threads = next(x for x in parts if x.startswith("torch:"))[6:].rstrip("t")
        key = (task, cfg, p, threads)
        if key not in rows:
            order.append(key)
        rows[key] = b
        if b.get("run_type") != "aggregate":
            reps.setdefault(key, []).append(b)
    if best:
        rows = {k: fastest(reps[k]) for k in order}
    return doc["context"], order, rows, errors


def fmt_time(ms):
    return f"{ms:.3f} ms" if ms < 1 else f"{ms:.1f} ms" if ms < 100 else f"{ms:.0f} ms"


def fmt_rate(x):
    return f"{x / 1e3:.1f}k" if x >= 1e3 else f"{x:.1f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("json", nargs="+", help="bench_models --benchmark_out files (merged)")
    ap.add_argument("--plot-data")
    ap.add_argument("--best", action="store_true",
                    help="each side's fastest repetition instead of the median")
    a = ap.parse_args()
    ctx, order, rows, errors = load(a.json, a.best)
    out = sys.stdout
    # the machine's limit: the all-core measurement, or cores × one core if that is higher (a
    # loaded machine can deschedule one of the all-core loop's threads)
    one, cores = float(ctx.get("peak_fma_1core_gflops", 0)), int(ctx.get("cores", 1))
    peak = max(float(ctx.get("peak_fma_all_gflops", 0)), cores * one)
    for b in rows.values():
        for who in ("ours", "torch"):
            if f"{who}_gflops" in b:
                b[f"{who}_pct_peak"] = 100 * b[f"{who}_gflops"] / peak
    out.write(f"Peak FMA ({ctx.get('xsimd_arch', '?')}): one core {one:.1f} GFLOP/s, "
              f"{cores} cores {float(ctx.get('peak_fma_all_gflops', 0)):.1f} GFLOP/s; the % of "
              f"peak columns divide by {peak:.1f} GFLOP/s. typeformer backend: "
              f"{ctx.get('typeformer_backend', '?')}; its training workers: "
              f"{ctx.get('train_threads', '?')}. Date: {ctx.get('date', '?')}.\n\n")
    for threads in sorted({k[3] for k in order}):
        out.write(f"### libtorch on {threads} thread{'s' if threads != '1' else ''} "
                  f"(ours: training workers 2, decoding products on {threads})\n\n")
        out.write("| task | config | ours | libtorch | speedup | ours tok/s | libtorch tok/s "
                  "| ours GFLOP/s | ours % peak | libtorch % peak | allocs ours / libtorch |\n")
        out.write("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
        for key in order:
            if key[3] != threads:
                continue
            task, cfg, p, _ = key
            b = rows[key]
            name = task + (f" {p}" if p else "")
            torch_ms = b.get("torch_ms")
            out.write(
                f"| {name} | {cfg} | {fmt_time(b['ours_ms'])} | "
                f"{fmt_time(torch_ms) if torch_ms else '—'} | "
                f"{'**%.2f×**' % b['speedup'] if 'speedup' in b else '—'} | "
                f"{fmt_rate(b['ours_tok_s'])} | "
                f"{fmt_rate(b['torch_tok_s']) if 'torch_tok_s' in b else '—'} | "
                f"{b['ours_gflops']:.1f} | {b['ours_pct_peak']:.0f}% | "
                f"{'%.0f%%' % b['torch_pct_peak'] if 'torch_pct_peak' in b else '—'} | "
                f"{b['ours_allocs']:.0f} / "
                f"{'%.0f' % b['torch_allocs'] if 'torch_allocs' in b else '—'} |\n")
        out.write("\n")
    for e in errors:
        out.write(f"- error: {e}\n")
    if a.plot_data:
        with open(a.plot_data, "w") as f:
            for (task, cfg, p, threads), b in rows.items():
                if threads != "2":
                    continue
                if task == "decode" and p != f"p:{CONFIGS[cfg][1] // 2}":
                    continue
                x = math.log10(parameters(cfg))
                label = {"train": "train step", "forward": "forward",
                         "decode": "decode at l_max/2"}[task]
                f.write(f"typeformer {label}\t{x:.4f}\t{b['ours_tok_s']:.6g}\n")
                if "torch_tok_s" in b:
                    f.write(f"libtorch {label}\t{x:.4f}\t{b['torch_tok_s']:.6g}\n")


if __name__ == "__main__":
    main()
