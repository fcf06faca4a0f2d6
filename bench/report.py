#!/usr/bin/python3
"""Markdown tables from bench_kernels --benchmark_format=json output (stdlib only).

    bench_kernels --benchmark_min_time=0.2 --benchmark_out=run.json --benchmark_out_format=json
    /usr/bin/python3 bench/report.py run.json [--alt LABEL=other.json ...] > tables.md

One table per configuration, one row per product: GFLOP/s of ours, scalar, OpenBLAS with 1 and 2
threads, ours / OpenBLAS (1 thread), and % of the single-core peak FMA rate measured by the same
run (the larger of the start-up calibration, context `peak_fma_gflops`, and the
peak_fma/<default arch> benchmark). `--alt LABEL=file.json` adds the OpenBLAS 1-thread
figures of another run (e.g. OPENBLAS_CORETYPE=SkylakeX) as extra columns; its % of peak is taken
against the main run's peak. With --benchmark_repetitions the median aggregate is used, or with
--best the fastest repetition (on a shared VM, where neighbours only ever slow a run down, the
fastest of several interleaved repetitions is the steadier figure for both sides).
The <config>/mlp_block/{fused,passes} rows make another: one MLP block's forward with its
residual add, biases and residual in the products' epilogue or as passes.
The <config>/attention_head/{causal,full} rows make one more table: one head's lines 4–6 and
their backward in µs under each mask, and full / causal (the gain of skipping the masked half).
"""
import argparse
import json
import statistics
import sys


CONFIGS = ["tiny", "small", "baby", "gpt2"]
PRODUCTS = ["qkv", "scores", "mix", "attn_out", "mlp_up", "mlp_down", "unembed"]
PASSES = ["fwd", "dX", "dW"]


def canonical(key):
    """peak_fma first, then configs, passes and products in the order of bench/README.md."""
    if key[0] == "peak_fma":
        return (0, key)
    cfg = CONFIGS.index(key[0]) if key[0] in CONFIGS else len(CONFIGS)
    product, _, pass_ = key[1].partition(".")
    rank = (PASSES.index(pass_) if pass_ in PASSES else len(PASSES),
            PRODUCTS.index(product) if product in PRODUCTS else len(PRODUCTS))
    return (1, cfg, key[0], rank, key[1], key[2:])


def load(path, best=False):
    with open(path) as f:
        doc = json.load(f)
    values = {}  # (config, product, impl) -> [FLOPS]
    medians = {}
    order = []
    errors = []
    for b in doc["benchmarks"]:
        if b.get("error_occurred"):
            errors.append(f"{b['name']}: {b.get('error_message', '?')}")
            continue
        parts = b.get("run_name", b["name"]).split("/")
        if parts[-1] == "real_time":
            parts = parts[:-1]
        if "FLOPS" not in b:
            continue
        key = tuple(parts) if parts[0] == "peak_fma" else (parts[0], parts[1], parts[2])
        if key not in values and key not in medians:
            order.append(key)
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                medians[key] = b["FLOPS"]
        else:
            values.setdefault(key, []).append(b["FLOPS"])
            if "label" in b:
                values.setdefault(("label",) + key, []).append(b["label"])
    # --benchmark_enable_random_interleaving shuffles the runs: the tables keep a fixed order.
    order = sorted(set(order), key=canonical)
    if best:
        flops = {k: max(values[k]) if values.get(k) else None for k in order}
    else:
        flops = {k: medians.get(k, statistics.median(values[k]) if values.get(k) else None)
                 for k in order}
    labels = {k[1:]: v[0] for k, v in values.items() if k[0] == "label"}
    return doc["context"], order, flops, labels, errors


def g(x):
    return "—" if not x else f"{x / 1e9:.1f}"


def pct(x, peak):
    return "—" if not x else f"{100 * x / peak:.0f}%"


def ratio(a, b):
    return "—" if not a or not b else f"{a / b:.2f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run")
    ap.add_argument("--alt", action="append", default=[], metavar="LABEL=FILE")
    ap.add_argument("--best", action="store_true",
                    help="the fastest repetition of each benchmark instead of the median")
    args = ap.parse_args()

    ctx, order, flops, labels, errors = load(args.run, args.best)
    # The start-up calibration and the peak_fma benchmark of the same architecture measure the
    # same loop; a busy machine can only make either lower, so the larger one is the peak.
    peak = max([float(ctx["peak_fma_gflops"]) * 1e9] +
               [flops[k] for k in order if k == ("peak_fma", ctx.get("xsimd_arch"))])
    alts = []
    for spec in args.alt:
        label, _, path = spec.partition("=")
        actx, _, aflops, _, aerrors = load(path, args.best)
        alts.append((label, actx, aflops))
        errors += [f"{label}: {e}" for e in aerrors]

    out = sys.stdout
    out.write(f"Peak FMA (single core, {ctx.get('xsimd_arch', '?')}): **{peak / 1e9:.1f} GFLOP/s** "
              f"(start-up calibration {float(ctx['peak_fma_gflops']):.1f})")
    for k in order:
        if k[0] == "peak_fma":
            out.write(f"; {k[1]} loop: {g(flops[k])} GFLOP/s")
    out.write(f". typeformer backend: {ctx.get('typeformer_backend', '?')}; "
              f"OpenBLAS core: {ctx.get('openblas_core', '?')}")
    for label, actx, _ in alts:
        out.write(f"; {label}: OpenBLAS core {actx.get('openblas_core', '?')}")
    out.write(".\n")
    for e in errors:
        out.write(f"\n**ERROR** {e}\n")

    configs = []
    for k in order:
        if k[0] != "peak_fma" and k[0] not in configs:
            configs.append(k[0])
    for cfg in configs:
        products = []
        for k in order:
            if k[0] == cfg and k[1] not in products and k[1] not in ("attention_head", "mlp_block"):
                products.append(k[1])
        has_scalar = any((cfg, p, "scalar") in flops for p in products)
        head = ["product", "shape (form m·n·k)", "ours", "ours % peak", "OpenBLAS 1t",
                "OpenBLAS % peak", "ours / OpenBLAS"]
        if has_scalar:
            head.insert(4, "scalar")
        for label, _, _ in alts:
            head += [f"OpenBLAS 1t {label}", f"ours / {label}"]
        head.append("OpenBLAS 2t")
        out.write(f"\n### {cfg} (GFLOP/s)\n\n| " + " | ".join(head) + " |\n")
        out.write("|" + "|".join("---" if i < 2 else "---:" for i in range(len(head))) + "|\n")
        for p in products:
            ours = flops.get((cfg, p, "ours"))
            blas = flops.get((cfg, p, "openblas_1t"))
            row = [p, labels.get((cfg, p, "ours"), ""), g(ours), pct(ours, peak), g(blas),
                   pct(blas, peak), ratio(ours, blas)]
            if has_scalar:
                row.insert(4, g(flops.get((cfg, p, "scalar"))))
            for _, _, aflops in alts:
                ab = aflops.get((cfg, p, "openblas_1t"))
                row += [g(ab), ratio(ours, ab)]
            row.append(g(flops.get((cfg, p, "openblas_2t"))))
            out.write("| " + " | ".join(row) + " |\n")

    # Rows whose FLOPS counts a fixed amount of work, work(label) (the label's "name=value" pairs),
    # as two variants side by side: time = work / FLOPS, in µs.
    def variant_table(title, name, first, second, columns, work):
        cfgs = [cfg for cfg in configs if (cfg, name, first) in flops]
        if not cfgs:
            return
        out.write(f"\n### {title} (µs)\n\n| config | shape | {columns} |\n|---|---|---:|---:|---:|\n")
        for cfg in cfgs:
            a, b = flops.get((cfg, name, first)), flops.get((cfg, name, second))
            label = labels.get((cfg, name, first), "")
            w = work(*(int(x.split("=")[1]) for x in label.split()))
            out.write(f"| {cfg} | {label} | {1e6 * w / a:.1f} | {1e6 * w / b:.1f} | {ratio(a, b)} |\n")

    # one head's six products of 2·l²·d (both rows count the full ones)
    variant_table("causal attention, one head: lines 4–6 and their backward", "attention_head",
                  "causal", "full", "causal mask | no mask | no mask / causal",
                  lambda l, d: 6 * 2.0 * l * l * d)
    # one MLP block's forward with the residual add: its two products
    variant_table("MLP block forward with the residual add: epilogue vs passes", "mlp_block",
                  "fused", "passes",
                  "bias and R in the epilogue | separate passes | passes / epilogue",
                  lambda l, de, dm: 4.0 * l * de * dm)

if __name__ == "__main__":
    main()
