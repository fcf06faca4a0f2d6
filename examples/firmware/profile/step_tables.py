"""docs/kernels.md's training-step and Cortex-M55 tables, from the JSON files measure.py writes.

  step_tables.py M4.json M7.json M55.json    (build/mcu-<core>/examples/firmware/profile/profile_gpt.json)

Prints Markdown:
  - tiny's training step per kernel on the Cortex-M4F (SGD; Adam's optimiser row beside it): the
    instructions per step and per token, the multiply-adds the kernel needs and the VFMAs it ran,
    the floor (FLOORS below) and how far above it the kernel is, with the M4 and M7 estimated
    cycles and the M55's instructions and estimated cycles per token;
  - the whole step (SGD, Adam) on the three cores;
  - the M55's estimated cycles per token for each decoding form, and per kernel for float and
    int8 (q8a8) at tiny and mid.
Every figure is a count of one run (QEMU -icount, the insn_mix plugin) weighted by measure.py's
cycle models; nothing is timed. The floors are computed here from tiny's shapes.
"""
import sys

from tables import FORMS, load  # the decoding forms' labels; a JSON file's regions

# tiny (examples/firmware/tiny.hpp) and gpt_profile's training sequence of l = 32 tokens
N_V, L, H, D_E, D_ATTN, D_MLP, LEN = 64, 2, 2, 32, 16, 128, 32
PARAMS = 30_592
HD = H * D_ATTN  # d_attn = d_mid: H·d_attn = H·d_mid
CAUSAL = LEN * (LEN + 1) // 2  # the (key, query) pairs of a causal head


def products(backward):
    """(d_out, d_in) of the weight products of one step; per product (MACs, words) with words the
    operands each product must read or write at least once."""
    shapes = [(HD, D_E)] * 3 + [(D_E, HD), (D_MLP, D_E), (D_E, D_MLP)]
    macs = words = 0
    for d_out, d_in in shapes * L:
        m = d_out * d_in * LEN
        if not backward:  # Y = W·X (+ b): W, X in, Y out
            macs, words = macs + m, words + d_out * d_in + d_in * LEN + d_out * LEN
        else:  # dX = Wᵀ·dY: W, dY in, dX out; dW += dY·Xᵀ: dY, X in, dW in and out
            macs += 2 * m
            words += (d_out * d_in + d_out * LEN + d_in * LEN) + \
                (d_out * LEN + d_in * LEN + 2 * d_out * d_in)
    return macs, words


# The floor of each kernel, in instructions per step on the M4F (FPv4-SP: one floating-point
# operation per instruction, VLDM/VSTM move up to 16 words in one): the multiply-adds and
# floating-point operations the formula needs (each one instruction; exp, erf, sqrt and a division
# counted as ONE instruction, which no implementation reaches: it makes the floor of GELU, softmax
# and Adam a lower bound, not a target) plus the words it must load or store once, 16 per
# instruction. (multiply-adds, floor, how the floor is made)
def floors():
    f = {}
    m, w = products(False)
    f["products (W_q, W_k, W_v, W_o, W_1, W_2)"] = (m, m + w / 16, "a VFMA per MAC; W, X, Y once")
    m, w = products(True)
    f["products, backward"] = (m, m + w / 16, "dX = Wᵀ·dY, dW += dY·Xᵀ: a VFMA per MAC")
    m = N_V * D_E * LEN
    f["unembedding"] = (m, m + (N_V * D_E + D_E * LEN + N_V * LEN) / 16, "a VFMA per MAC")
    f["unembedding, backward"] = (2 * m, 2 * m + (3 * N_V * D_E + 2 * (D_E + N_V) * LEN) / 16,
                                  "a VFMA per MAC")
    heads = L * H
    m = heads * D_ATTN * CAUSAL  # causal: each query against the keys up to it
    f["attention Kᵀq"] = (m, m + heads * (2 * D_ATTN * LEN + CAUSAL) / 16, "causal pairs only")
    f["attention V·α"] = (m, m + heads * (2 * D_ATTN * LEN + CAUSAL) / 16, "causal pairs only")
    f["attention products, backward"] = (4 * m, 4 * m + heads * (8 * D_ATTN * LEN + 4 * CAUSAL) / 16,
                                         "dα, dV, dQ, dK: causal pairs")
    n_ln = (2 * L + 1) * D_E * LEN
    # forward: Σx, x − μ, Σ(x − μ)², rstd·γ, one FMA with β: 5; x, γ, β in, y out
    f["layer norm"] = (0, n_ln * (5 + 4 / 16) + (2 * L + 1) * LEN * 2, "5 FP ops an element, √ and ÷ a column")
    # backward: x̂ (2), g = dy·γ, Σg, Σg·x̂, dx = rstd·(g − ḡ − x̂·m) (3), dγ, dβ: 10; x, dy, γ in,
    # dx out, dγ and dβ in and out
    f["layer norm backward"] = (0, n_ln * (10 + 8 / 16), "10 FP ops an element")
    n_mlp = L * D_MLP * LEN
    # GELU: u = x/√2, erf(u), ½x, FMA: 4; x in, y out
    f["GELU"] = (0, n_mlp * (4 + 2 / 16), "4 FP ops an element, erf as 1")
    # GELU′: x/√2, erf, Φ, x², the exponent, exp, x·φ, the FMA with Φ, ·dy: 9; x, dy in, dx out
    f["GELU backward"] = (0, n_mlp * (9 + 3 / 16), "9 FP ops an element, erf and exp as 1 each")
    scores = L * H * CAUSAL
    # softmax: max, subtract, exp, sum, scale: 5 a score, one ÷ a column; s in, α out
    f["softmax"] = (0, scores * (5 + 2 / 16) + L * H * LEN, "5 FP ops a causal score, exp as 1")
    # softmax′: Σα·dα, (dα − Σ)·α: 3; α, dα in, ds out
    f["softmax backward"] = (0, scores * (3 + 3 / 16), "3 FP ops a causal score")
    logits = N_V * LEN
    # cross-entropy with its gradient: max, subtract, exp, sum, ·1/Σ, ·1/l: 6 a logit, log a
    # column; logits in, gradient out
    f["cross-entropy"] = (0, logits * (6 + 2 / 16) + LEN, "6 FP ops a logit, exp as 1")
    # SGD: θ ← θ − lr·g, one FMA; θ, g in, θ out
    f["optimiser (SGD)"] = (0, PARAMS * (1 + 3 / 16), "1 FMA a parameter; θ, g in, θ out")
    # Adam: m (2), v (3), √v·c + ε (2), θ −= s·m/den (2): 9; θ, g, m, v in, θ, m, v out
    f["optimiser (Adam)"] = (0, PARAMS * (9 + 7 / 16), "9 FP ops a parameter (√, ÷ as 1); 7 words")
    return f


# gpt_profile's two decoding models (tiny as above; mid: the 252k-parameter GPT) and its measured
# positions 12..27: a token at position t attends to t + 1 keys (20.5 on average)
DECODING = {"tiny": dict(N_V=64, L=2, H=2, d_e=32, d_attn=16, d_mlp=128),
            "mid": dict(N_V=256, L=8, H=4, d_e=48, d_attn=12, d_mlp=192)}
KEYS = sum(t + 1 for t in range(12, 28)) / 16


def decoding_floors(c):
    """Per token, the kernels of a decoding step that docs/kernels.md's per-kernel tables give no
    floor: (kernel, elements, floor in instructions, how), with the floors of training_table."""
    heads = c["L"] * c["H"]
    macs = heads * c["d_attn"] * KEYS
    n_ln = (2 * c["L"] + 1) * c["d_e"]
    return [
        # each cached key or value read once (VLDM of 16), one VFMA per multiply-add
        ("attention Kᵀq", macs, macs * (1 + 1 / 16), "a VFMA per MAC, each cached key read once"),
        ("attention V·α", macs, macs * (1 + 1 / 16), "a VFMA per MAC, each cached value read once"),
        ("layer norm", n_ln, n_ln * (5 + 4 / 16) + (2 * c["L"] + 1) * 2, "5 FP ops an element"),
        ("GELU", c["L"] * c["d_mlp"], c["L"] * c["d_mlp"] * (4 + 2 / 16), "4 FP ops an element"),
        ("softmax", heads * KEYS, heads * KEYS * (5 + 2 / 16) + heads, "5 FP ops a score"),
    ]


def decoding_table(m4):
    print("| model | kernel | elements or MACs per token | floor (instr./token) | float instr. | "
          "× floor | int8 (q8a8) instr. | × floor |")
    print("|---|---|---|---|---|---|---|---|")
    for model, c in DECODING.items():
        f, q = m4[f"{model}_float"]["kernels"], m4[f"{model}_q8a8"]["kernels"]
        for k, n, floor, _ in decoding_floors(c):
            a, b = f[k]["insns_per_token"], q[k]["insns_per_token"]
            print(f"| {model} | {k} | {num(n, 1 if n != int(n) else 0)} | {num(floor)} | {num(a)} | "
                  f"{a / floor:.1f} | {num(b)} | {b / floor:.1f} |")


def num(x, digits=0):
    return f"{x:,.{digits}f}" if x is not None else "—"


ORDER = ["products (W_q, W_k, W_v, W_o, W_1, W_2)", "attention Kᵀq", "attention V·α", "unembedding",
         "layer norm", "GELU", "softmax", "cross-entropy", "products, backward",
         "attention products, backward", "unembedding, backward", "layer norm backward",
         "GELU backward", "softmax backward", "optimiser"]


def training_table(m4, m7, m55):
    """The step per kernel: typeformer's SGD step on the three cores, Adam's optimiser below it,
    and plain_train.c's SGD step (the hand-written loops, M4F) beside them."""
    fl = floors()
    print("| kernel | M4F instr./step | M4F instr./token | multiply-adds (VFMA run) | instr./MAC | "
          "floor (instr./step) | × floor | plain C instr./token | M4 est. cycles/token | "
          "M7 instr./token | M7 est. cycles/token | M55 instr./token | M55 est. cycles/token |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    sgd4, sgd7, sgd55 = (d["tiny_sgd_step"] for d in (m4, m7, m55))
    adam4, adam7, adam55 = (d["tiny_adam_step"] for d in (m4, m7, m55))
    plain = m4.get("tiny_plain_c_sgd_step", {"kernels": {}})
    both = set(sgd4["kernels"]) | set(plain["kernels"])
    size = lambda k: -(sgd4["kernels"].get(k) or plain["kernels"][k])["insns_per_token"]
    names = [k for k in ORDER if k in both] + sorted((k for k in both if k not in ORDER), key=size)
    rows = [(k, k, sgd4, sgd7, sgd55, plain) for k in names]
    rows.insert(names.index("optimiser") + 1,
                ("optimiser", "optimiser (Adam)", adam4, adam7, adam55, {"kernels": {}}))
    total_floor = 0
    for key, label, r4, r7, r55, rp in rows:
        k4, k7, k55, kp = (r["kernels"].get(key, {}) for r in (r4, r7, r55, rp))
        per_step = k4["insns_per_token"] * LEN if k4 else None
        name = "optimiser (SGD)" if label == "optimiser" else label
        macs, floor, _ = fl.get(name, (0, None, ""))
        vfma = k4.get("mix", {}).get("vmac", 0) * LEN
        mac_cell = f"{num(macs)} ({num(vfma)})" if macs else "—"
        per_mac = f"{per_step / macs:.2f}" if macs and per_step else "—"
        over = f"{per_step / floor:.1f}" if floor and per_step else "—"
        if floor and label != "optimiser (Adam)":
            total_floor += floor
        print(f"| {name} | {num(per_step)} | {num(k4.get('insns_per_token'))} | {mac_cell} | "
              f"{per_mac} | {num(floor)} | {over} | {num(kp.get('insns_per_token'))} | "
              f"{num(k4.get('cycles_per_token'))} | {num(k7.get('insns_per_token'))} | "
              f"{num(k7.get('cycles_per_token'))} | {num(k55.get('insns_per_token'))} | "
              f"{num(k55.get('cycles_per_token'))} |")
    macs = sgd4["macs_per_token"] * LEN
    step = sgd4["insns_per_token"] * LEN
    print(f"| **SGD step** | **{num(step)}** | **{num(sgd4['insns_per_token'])}** | {num(macs)} | "
          f"{step / macs:.2f} | {num(total_floor)} (the kernels with a floor) | "
          f"{step / total_floor:.1f} | **{num(plain.get('insns_per_token'))}** | "
          f"{num(sgd4['cycles_per_token'])} | {num(sgd7['insns_per_token'])} | "
          f"{num(sgd7['cycles_per_token'])} | {num(sgd55['insns_per_token'])} | "
          f"{num(sgd55['cycles_per_token'])} |")


def whole_steps(m4, m7, m55):
    print("| step (tiny, 32 tokens) | M4F instr./token | M4F instr./MAC | M4 est. cycles/token | "
          "M7 instr./token | M7 est. cycles/token | M55 instr./token | M55 instr./MAC | "
          "M55 est. cycles/token |")
    print("|---|---|---|---|---|---|---|---|---|")
    for step, name in (("sgd", "SGD"), ("adam", "Adam")):
        a, b, c = (d[f"tiny_{step}_step"] for d in (m4, m7, m55))
        print(f"| {name} | {num(a['insns_per_token'])} | {a['insns_per_mac']:.2f} | "
              f"{num(a['cycles_per_token'])} | {num(b['insns_per_token'])} | "
              f"{num(b['cycles_per_token'])} | {num(c['insns_per_token'])} | "
              f"{c['insns_per_mac']:.2f} | {num(c['cycles_per_token'])} |")


def m55_tables(m55):
    print("| model | form | M55 instr./token | instr./MAC | M55 est. cycles/token | cycles/MAC | "
          "float's cycles over this form's |")
    print("|---|---|---|---|---|---|---|")
    for model, name in [("tiny", "tiny"), ("mid", "252k-parameter")]:
        f = m55[f"{model}_float"]
        for form, what in FORMS:
            r = m55[f"{model}_{form}"]
            print(f"| {name} | {what} | {num(r['insns_per_token'])} | {r['insns_per_mac']:.2f} | "
                  f"{num(r['cycles_per_token'])} | "
                  f"{r['cycles_per_token'] / r['macs_per_token']:.2f} | "
                  f"{f['cycles_per_token'] / r['cycles_per_token']:.2f}× |")
    for model in ("tiny", "mid"):
        f, q = m55[f"{model}_float"]["kernels"], m55[f"{model}_q8a8"]["kernels"]
        print(f"\n{model}, one token on the Cortex-M55, per kernel (float; int8 weights and "
              "activations):\n")
        print("| kernel | float instr. | float est. cycles | int8 instr. | int8 est. cycles |")
        print("|---|---|---|---|---|")
        for k in sorted(set(f) | set(q), key=lambda k: -(f.get(k) or q[k])["cycles_per_token"]):
            a, b = f.get(k, {}), q.get(k, {})
            print(f"| {k} | {num(a.get('insns_per_token'))} | {num(a.get('cycles_per_token'))} | "
                  f"{num(b.get('insns_per_token'))} | {num(b.get('cycles_per_token'))} |")
        a, b = m55[f"{model}_float"], m55[f"{model}_q8a8"]
        print(f"| **whole token** | **{num(a['insns_per_token'])}** | "
              f"**{num(a['cycles_per_token'])}** | **{num(b['insns_per_token'])}** | "
              f"**{num(b['cycles_per_token'])}** |")


def main():
    m4, m7, m55 = (load(p) for p in sys.argv[1:4])
    print("tiny's training step on 32 tokens, per kernel (SGD; Adam's optimiser below it):\n")
    training_table(m4, m7, m55)
    print("\nThe decoding's other kernels against their floor (M4F, per token):\n")
    decoding_table(m4)
    print("\nThe whole step:\n")
    whole_steps(m4, m7, m55)
    print("\nThe Cortex-M55's estimated cycles per token:\n")
    m55_tables(m55)


if __name__ == "__main__":
    main()
