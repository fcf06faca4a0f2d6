"""docs/kernels.md's device tables, from the JSON files measure.py writes (mcu.<board>.profile_gpt).

  tables.py M4.json M7.json M55.json     (build/mcu-m4/examples/firmware/profile/profile_gpt.json, ...)

Prints Markdown: per model and form, instructions per token and per multiply-add on each core with
the estimated cycles (Cortex-M4 and M7 weights, measure.py) and the int8 forms' cycle ratio to
float; then, per kernel of a Cortex-M4F token, the instructions beside the floor of the products
(FLOOR below). Every figure is a count of the run (QEMU -icount, the insn_mix plugin); nothing
here is timed.
"""
import json
import sys

# The products' floor in instructions per multiply-add: the loads and multiply-adds no kernel can
# avoid when every weight is read once and the input column stays in registers.
#   M4F/M7 float: one VFMA each, one VLDM per 16 weights (1 + 1/16)
#   M4/M7 int8:   per 4 weights one LDR, two SXTB16 and two SMLAD (5/4)
#   M55 float:    VFMA on 4 lanes, VLDRW of 4 weights (2/4); int8: VLDRB.8 of 16 and VMLADAVA (2/16)
FLOOR = {("m4", "float"): 1 + 1 / 16, ("m4", "int8"): 5 / 4, ("m55", "float"): 2 / 4,
         ("m55", "int8"): 2 / 16}
FORMS = [("float", "float32 weights, activations, cache"),
         ("q8", "int8 weights (widened to float)"),
         ("q8a8", "int8 weights and activations"),
         ("kv8", "float, int8 KV cache"),
         ("q8a8_kv8", "int8 weights, activations and KV cache"),
         ("plain_c", "plain C reference (plain_gpt.c)")]
PRODUCTS = ["products (W_q, W_k, W_v, W_o, W_1, W_2)", "attention Kᵀq", "attention V·α",
            "unembedding"]


def load(path):
    with open(path) as f:
        return json.load(f)["regions"]


def num(x, digits=0):
    return f"{x:,.{digits}f}"


def main():
    m4, m7, m55 = (load(p) for p in sys.argv[1:4])
    print("| model | form | M4F instr./token | M4F instr./MAC | M4 est. cycles/token | "
          "M7 instr./MAC | M7 est. cycles/token | M55 instr./token | M55 instr./MAC |")
    print("|---|---|---|---|---|---|---|---|---|")
    for model, name in [("tiny", "tiny (29k MAC/token)"), ("mid", "252k-parameter (249k MAC/token)")]:
        f4, f7 = m4[f"{model}_float"], m7[f"{model}_float"]
        for form, what in FORMS:
            a, b, c = m4[f"{model}_{form}"], m7[f"{model}_{form}"], m55[f"{model}_{form}"]
            r4 = f" ({f4['cycles_per_token'] / a['cycles_per_token']:.2f}× fewer)" \
                if form.startswith("q8a8") else ""
            r7 = f" ({f7['cycles_per_token'] / b['cycles_per_token']:.2f}× fewer)" \
                if form.startswith("q8a8") else ""
            print(f"| {name} | {what} | {num(a['insns_per_token'])} | {a['insns_per_mac']:.2f} | "
                  f"{num(a['cycles_per_token'])}{r4} | {b['insns_per_mac']:.2f} | "
                  f"{num(b['cycles_per_token'])}{r7} | {num(c['insns_per_token'])} | "
                  f"{c['insns_per_mac']:.2f} |")
    print("\ntiny's training steps on 32 tokens, per token (forward, backward, the optimiser):\n")
    print("| step | M4F instr./token | M4F instr./MAC | M4 est. cycles/token | M7 est. cycles/token | "
          "M55 instr./MAC |")
    print("|---|---|---|---|---|---|")
    for step in ("sgd", "adam"):
        a, b, c = (d[f"tiny_{step}_step"] for d in (m4, m7, m55))
        print(f"| {step.upper() if step == 'sgd' else 'Adam'} | {num(a['insns_per_token'])} | "
              f"{a['insns_per_mac']:.2f} | {num(a['cycles_per_token'])} | "
              f"{num(b['cycles_per_token'])} | {c['insns_per_mac']:.2f} |")
    for model in ["tiny", "mid"]:
        print(f"\n{model}, one token on the Cortex-M4F (instructions per token; a product's "
              "multiply-adds are its VFMA count in the float run):\n")
        print("| kernel | float | int8 weights and activations | plain C | multiply-adds | "
              "float per MAC (floor 1.06) | int8 per MAC (floor 1.25) | M4 est. cycles: float | int8 |")
        print("|---|---|---|---|---|---|---|---|---|")
        fl, q, pc = m4[f"{model}_float"]["kernels"], m4[f"{model}_q8a8"]["kernels"], \
            m4[f"{model}_plain_c"]["kernels"]
        for k in sorted(set(fl) | set(q) | set(pc),
                        key=lambda k: -fl.get(k, q.get(k, pc.get(k, {})))
                        .get("insns_per_token", 0)):
            i = [d[k]["insns_per_token"] if k in d else None for d in (fl, q, pc)]
            macs = fl[k]["mix"].get("vmac", 0) if k in PRODUCTS and k in fl else None
            cells = [num(x) if x is not None else "—" for x in i]
            per = [f"{x / macs:.2f}" if macs and x is not None else "—" for x in i[:2]]
            cyc = [num(d[k]["cycles_per_token"]) if k in d else "—" for d in (fl, q)]
            print(f"| {k} | {' | '.join(cells)} | {num(macs) if macs else '—'} | "
                  f"{' | '.join(per)} | {' | '.join(cyc)} |")
        t = [m4[f"{model}_{f}"]["insns_per_token"] for f in ("float", "q8a8", "plain_c")]
        macs = m4[f"{model}_float"]["macs_per_token"]
        print(f"| **whole token** | **{num(t[0])}** | **{num(t[1])}** | **{num(t[2])}** | "
              f"{num(macs)} | {t[0] / macs:.2f} | {t[1] / macs:.2f} | "
              f"{num(m4[f'{model}_float']['cycles_per_token'])} | "
              f"{num(m4[f'{model}_q8a8']['cycles_per_token'])} |")
        print(f"| floor of the products | {num(macs * FLOOR[('m4', 'float')])} | "
              f"{num(macs * FLOOR[('m4', 'int8')])} | | | 1.06 | 1.25 | | |")


if __name__ == "__main__":
    main()
