"""Instructions per token, per multiply-add and estimated cycles of a firmware run, per kernel.

  measure.py --qemu Q --machine M --plugin libinsn_mix.so --addr2line A2L --elf FW.elf
             --core m4|m7|m55 [--mve] [--objdump OBJDUMP] [--check EXPR ...] [--json OUT]
             [--timeout S]
  measure.py --weights          the cycle weights as a Markdown table (docs/kernels.md)
  measure.py --weights-m55      the Cortex-M55's

Runs FW.elf under QEMU (-icount shift=0) with the insn_mix plugin, which counts every executed
instruction per address and class inside the regions the firmware marks (profile.hpp). The
firmware names each region after it closes:

  info region <label> tokens <n> macs <n> icount <n>

(macs: the region's multiply-adds, all kernels; icount: QEMU's instruction count, which the
plugin's must match.)
Regions with the same label add up; per token is their sum over their tokens. Each instruction's
address is mapped to the function it was inlined into (addr2line -i on the ELF, which is built with
-g) and from there to a kernel (KERNELS below), so the breakdown is of the real run, not of kernels
timed alone. Estimated cycles weight the classes (M4, M7 below); the Cortex-M55's weight each
executed instruction after the one before it in its block (M55, m55_block_cycles: MVE's beats).

--check 'LABEL insns/mac <= 2.5', 'LABEL/OTHER cycles >= 2' (OTHER's cycles per token over
LABEL's) or 'LABEL[KERNEL] insns/token <= N' (one kernel's instructions per token) fails the run
when it does not hold: CI's bounds (docs/kernels.md).
"""
import argparse
import collections
import functools
import json
import os
import re
import subprocess
import sys
import tempfile

# ---- cycle weights ------------------------------------------------------------------------------
# Cortex-M4 (r0p1 TRM, Arm DDI 0439B: table 3-1 "Cortex-M4 instruction set summary" and table 7-1,
# the FPU's): cycles per instruction with zero wait states, P (pipeline refill) = 1, loads and
# stores not pipelined with their neighbours. (insn, per register or word moved).
M4 = {
    "alu": (1, 0), "it": (1, 0), "mul": (1, 0), "dsp": (1, 0),
    "div": (7, 0),                   # 2-12, operand dependent: the middle
    "ldr": (2, 0), "ldrd": (3, 0),   # LDRD: 1 + N
    "ldm": (1, 1), "stm": (1, 1),    # 1 + N
    "str": (2, 0), "strd": (3, 0),
    "b": (2, 0),                     # 1 + P
    "bcond": (2, -1),                # taken 1 + P; not taken 1 (extra: the not-taken ones)
    "ldpc": (2, 1),                  # POP {.., pc}: 1 + N + P
    "valu": (1, 0),                  # VADD, VSUB, VMUL, VCMP, VCVT, VABS, VNEG, VMOV: 1
    "vmac": (3, 0),                  # VMLA, VFMA and their negations: 3
    "vdiv": (14, 0),                 # VDIV, VSQRT: 14
    "vldr": (2, 0), "vstr": (2, 0),
    "vldm": (1, 1), "vstm": (1, 1),  # 1 + N
    "vmov": (2, 0),                  # one float to or from a core register: 2
    "vmrs": (1, 0), "other": (1, 0), "unknown": (1, 0),
}

# Cortex-M7: Arm publishes no per-instruction timing. The estimate is built from the pipeline
# description in LLVM's scheduling model for the core (ARMScheduleM7.td, contributed by Arm): two
# issue slots per cycle; one MAC pipe, one FP pipe, one DSP/SIMD pipe (slot 0 only), two ALUs, two
# load ports, one store port; load/store multiples, LDRD/STRD, divides and system instructions
# issue alone. Here: the single-issue instructions' cycles add (a multiple moves 64 bits a cycle),
# and the others pack at the rate the busiest of the issue slots and pipes allows.
M7_SINGLE = {  # cycles, per word
    "ldrd": (1, 0), "strd": (1, 0), "ldm": (0, 0.5), "stm": (0, 0.5), "ldpc": (1, 0.5),
    "vldm": (0, 0.5), "vstm": (0, 0.5), "div": (7, 0), "vmrs": (1, 0), "other": (1, 0),
    "unknown": (1, 0),
}
M7_PIPE = {  # the dual-issuable classes: the pipe each one occupies for a cycle
    "alu": "alu", "it": "alu", "mul": "mac", "dsp": "simd", "ldr": "load", "str": "store",
    "b": "branch", "bcond": "branch", "valu": "fp", "vmac": "fp", "vdiv": "fp", "vldr": "load",
    "vstr": "store", "vmov": "fp",
}
M7_RATE = {"alu": 2, "mac": 1, "simd": 1, "load": 2, "store": 1, "branch": 1, "fp": 1}
M7_VDIV = 14  # VDIV.F32 / VSQRT.F32 hold the FP pipe (not pipelined)


def cycles_m4(mix):
    return sum(M4[k][0] * n + M4[k][1] * e for k, (n, e) in mix.items() if k in M4)


def cycles_m7(mix):
    single = sum(M7_SINGLE[k][0] * n + M7_SINGLE[k][1] * e
                 for k, (n, e) in mix.items() if k in M7_SINGLE)
    slots, pipes = 0, collections.Counter()
    for k, (n, e) in mix.items():
        if k in M7_PIPE:
            slots += n
            pipes[M7_PIPE[k]] += n * (M7_VDIV if k == "vdiv" else 1)
    packed = max([slots / 2] + [pipes[p] / M7_RATE[p] for p in pipes])
    return single + packed


def weights_markdown():
    rows = ["| class | instructions | Cortex-M4 cycles | Cortex-M7 estimate |", "|---|---|---|---|"]
    what = {
        "alu": "data processing, moves, compares, extends", "it": "IT",
        "mul": "MUL, MLA, long multiplies, SMLAD, SMLABB ...", "dsp": "SXTB16, SADD16, SSAT ...",
        "div": "SDIV, UDIV", "ldr": "LDR (any size)", "ldrd": "LDRD", "ldm": "LDM, POP (N registers)",
        "str": "STR (any size)", "strd": "STRD", "stm": "STM, PUSH (N registers)",
        "b": "B, BL, BX, BLX", "bcond": "B<c>, CBZ, CBNZ", "ldpc": "POP {.., pc}, LDR pc",
        "valu": "VADD, VSUB, VMUL, VCMP, VCVT, VMOV (reg)", "vmac": "VFMA, VMLA (and negated)",
        "vdiv": "VDIV, VSQRT", "vldr": "VLDR", "vstr": "VSTR", "vldm": "VLDM, VPOP (N words)",
        "vstm": "VSTM, VPUSH (N words)", "vmov": "VMOV core ↔ FP", "vmrs": "VMRS, VMSR",
        "other": "hints, barriers, MRS, MSR, SVC, BKPT",
    }
    for k, text in what.items():
        a, b = M4[k]
        m4 = f"{a}" + (f" + {b}·N" if b > 0 else "") + (" (not taken: 1)" if k == "bcond" else "")
        if k in M7_SINGLE:
            c, d = M7_SINGLE[k]
            m7 = "alone: " + (f"{c}" if c else "") + (" + " if c and d else "") + \
                (f"N/2" if d else "")
        else:
            pipe = M7_PIPE[k]
            m7 = f"{pipe} pipe" + (f", {M7_RATE[pipe]} a cycle" if M7_RATE[pipe] > 1 else "") + \
                (f", holds it {M7_VDIV}" if k == "vdiv" else "")
        rows.append(f"| {k} | {text} | {m4} | {m7} |")
    return "\n".join(rows)



# Cortex-M55: Arm's Software Optimization Guide for the core was not at hand; the estimate follows
# LLVM's scheduling model for it (ARMScheduleM55.td, contributed by Arm): MVE runs in four pipes
# ("load/store", "integer", "float/mul", "control"), every 128-bit MVE instruction takes two
# beats of 64 bits, one a cycle, and the first beat of an instruction overlaps the second of the
# one before when the two use different pipes (VLDR;VADD;VMUL;VSTR: 5 cycles, VLDR;VLDRB;VADD;VSTR:
# 6). So an MVE instruction costs 1 cycle after an MVE instruction of another pipe and 2
# otherwise; VPST, VCTP and VPNOT (control pipe) 1. Scalar floating point is pipelined on the M55
# (VFMA.F32: one issue cycle, against the M4's 3), VDIV/VSQRT.F32 take its 16-cycle latency as a
# stall, VLDR/VSTR one cycle; integer instructions and loads one issue cycle; what the model does
# not give (load/store multiples, divides, branches) keeps the Cortex-M4's figure. The pipe of an
# MVE instruction comes from its mnemonic (arm-none-eabi-objdump -m armv8.1-m.main).
M55 = dict(M4)
M55.update({
    "it": (0, 0),                    # LLVM: IT dual-issues with its neighbour
    "mul": (1, 0), "ldr": (1, 0), "str": (1, 0),
    "valu": (1, 0), "vmac": (1, 0), "vmov": (1, 0),
    "vdiv": (16, 0),
    "vldr": (1, 0), "vstr": (1, 0),
    "lob": (1, 0),                   # DLS, WLS, LE, LETP (the LOB cache may make LE free)
    "mve_ld": (2, 0), "mve_st": (2, 0), "mve_mac": (2, 0), "mve_other": (2, 0),
})
M55_MVE_FP = re.compile(
    r"^v(mul|mla|mlas|fma|fms|fmas|mlav|mlava|mladav\w*|mlsdav\w*|mlaldav\w*|mlsldav\w*|rmlaldavh\w*|"
    r"rmlsldavh\w*|q?r?d?mulh|q?dmull\w*|mull\w*|cvt\w*|cmp|pt\w*|addv|addva|addlv\w*|rint\w*|"
    r"cmul|cmla|maxnm\w*|minnm\w*|abd)$")
M55_SYS = {"vpst", "vctp", "vpnot"}


def mve_pipe(mnemonic, operands):
    """The M55 pipe of an MVE instruction ("ls", "int", "fp", "sys"), or None if it is not one."""
    full = mnemonic.lower()
    base = full.split(".")[0]
    if base in M55_SYS or re.fullmatch(r"vpt\w*|vpste?\w*", base) and not re.search(r"\bq\d", operands):
        return "sys"
    if not re.search(r"\bq[0-7]\b", operands):
        return None
    if re.match(r"v(ldr|str|ld[24]|st[24])", base):
        return "ls"
    # VPT-predicated forms carry a t/e suffix (vldrwt, vfmat): try the name without it
    names = [base] + ([base[:-1]] if base[-1] in "te" else [])
    if any(".f" in full or M55_MVE_FP.match(n) for n in names):
        return "fp"
    return "int"


def mve_pipes(objdump, elf):
    """pc -> M55 pipe, for every MVE instruction of the image."""
    out = subprocess.run([objdump, "-d", "--no-show-raw-insn", "-m", "armv8.1-m.main", elf],
                         check=True, capture_output=True, text=True).stdout
    pipes = {}
    for line in out.splitlines():
        m = re.match(r"^\s*([0-9a-f]+):\t(\S+)\t?(.*)$", line)
        if m:
            pipe = mve_pipe(m[2], m[3])
            if pipe:
                pipes[int(m[1], 16)] = pipe
    return pipes


def m55_block_cycles(insns, pipes):
    """Each instruction's estimated M55 cycles in a block (insns: [(pc, class, regs)]), beats
    overlapped as above. A block that ends in a low-overhead loop's LE is taken to follow itself
    (the loop body), so its first instruction overlaps with its last MVE one."""
    prev = None
    if insns and insns[-1][1] == "lob":
        for pc, _, _ in reversed(insns[:-1]):
            prev = pipes.get(pc)
            break
    costs = []
    for pc, cls, regs in insns:
        pipe = pipes.get(pc)
        if pipe == "sys":
            c = 1
        elif pipe:
            c = 1 if prev not in (None, "sys") and prev != pipe else 2
        else:
            a, b = M55.get(cls, (1, 0))
            c = a + b * regs
        costs.append(c)
        prev = pipe if pipe != "sys" else None
    return costs


def m55_self_test():
    """The M55 model against the sequences LLVM's Cortex-M55 model documents (ARMScheduleM55.td's
    header: VLDR;VADD;VMUL;VSTR in 5 cycles, VLDR;VLDRB;VADD;VSTR in 6) and the pipes it assigns."""
    pipes = {"vldrw.u32": "ls", "vldrwt.u32": "ls", "vstrb.8": "ls", "vfma.f32": "fp",
             "vfmat.f32": "fp", "vmlava.s8": "fp", "vmladava.s8": "fp", "vmul.f32": "fp",
             "vmul.i32": "fp", "vcvtn.s32.f32": "fp", "vmaxnmavt.f32": "fp", "vadd.i32": "int",
             "vdup.32": "int", "vpsel": "int", "vmovn.i32": "int", "vctp.32": "sys", "vpst": "sys"}
    bad = [(m, p, mve_pipe(m, "q0, q1, q2" if p != "sys" else "r0")) for m, p in pipes.items()
           if mve_pipe(m, "q0, q1, q2" if p != "sys" else "r0") != p]
    bad += [("vadd.f32 s0", None, mve_pipe("vadd.f32", "s0, s1, s2"))] \
        if mve_pipe("vadd.f32", "s0, s1, s2") is not None else []
    seqs = {5: ["ls", "int", "fp", "ls"], 6: ["ls", "ls", "int", "ls"]}
    for want, seq in seqs.items():
        insns = [(i, "mve_other", 0) for i in range(len(seq))]
        got = sum(m55_block_cycles(insns, dict(enumerate(seq))))
        if got != want:
            bad.append((" ".join(seq), want, got))
    for b in bad:
        print(f"FAIL: {b[0]}: expected {b[1]}, the model gives {b[2]}")
    print("m55 model:", "FAILED" if bad else "ok")
    return not bad


def weights_m55_markdown():
    rows = ["| instructions | Cortex-M55 cycles | source |", "|---|---|---|"]
    rows += [
        "| MVE, after an MVE instruction of another pipe (load/store, integer, float/mul) | 1 | "
        "beats overlapped (LLVM ARMScheduleM55.td) |",
        "| MVE, otherwise (after one of the same pipe, or a scalar one) | 2 | two beats of 64 bits |",
        "| VPST, VCTP, VPNOT | 1 | control pipe |",
        "| data processing, MUL, MLA, SMLAD, SXTB16, LDR, STR (one register) | 1 | one issue cycle |",
        "| IT | 0 | dual-issued |",
        "| VADD, VMUL, VFMA, VCVT, VMOV, VLDR, VSTR (scalar .F32) | 1 | pipelined FPU |",
        "| VDIV, VSQRT (.F32) | 16 | the model's latency, as a stall |",
        "| DLS, WLS, LE, LETP | 1 | |",
        "| LDRD, STRD, LDM, STM, VLDM, VSTM, branches, SDIV | as the Cortex-M4 | not in the model |",
    ]
    return "\n".join(rows)

# ---- kernels: the inlined function an address belongs to ----------------------------------------
# The innermost frame that matches, from the inside out; a product is further told apart by the
# frames around it (attention's, the unembedding's or the layers' weights).
LIBRARY = [  # newlib's (called, not inlined) and plain_gpt.c's functions, by name
    (r"^(__ieee754_)?expf$|^__expf|^fmaxf$|^__fpclassifyf$|^fabsf$", "softmax"),
    (r"^erff$|^__erff", "GELU"),
    (r"^(__ieee754_)?sqrtf$", "layer norm"),
    (r"^memcpy$|^memset$", "copies"),
    (r"^matvec$", "products (W_q, W_k, W_v, W_o, W_1, W_2)"),
    (r"^layer_norm$", "layer norm"),
    (r"^plain_gpt_step$", "attention, residuals (plain C)"),
]
KERNELS = [
    (r"kernels::(?:\w+::)+(quantize_pairs|amax|quantize_q8_with|activation_amax_q8)\b", "quantize activations"),
    (r"kernels::(?:\w+::)+(gemm_q8|gemv_q8|q8_\w*dot|quantize_columns)\w*", "product"),
    (r"kernels::(?:\w+::)+(gemm_nn|gemm_tn|gemm_nt|gemv_n|gemv_t|gemm_\w+|gemv\w*)\b", "product"),
    (r"kernels::(?:\w+::)+softmax_columns_backward", "softmax backward"),
    (r"kernels::(?:\w+::)+softmax_columns", "softmax"),
    (r"kernels::(?:\w+::)+layer_norm_backward", "layer norm backward"),
    (r"kernels::(?:\w+::)+layer_norm", "layer norm"),
    (r"kernels::(?:\w+::)+(gelu_backward|gelu_derivative)", "GELU backward"),
    (r"kernels::(?:\w+::)+gelu", "GELU"),
    (r"kernels::(?:\w+::)+cross_entropy", "cross-entropy"),
    (r"kernels::(?:\w+::)+(adam|sgd)\w*|train::\w*(adam|sgd)\w*|\b(adam|sgd)_(step|update)", "optimiser"),
    (r"kernels::(?:\w+::)+(add_bias|add_bias_grad|axpy|scale|apply_epilogue)\b", "bias, residual"),
    (r"\bembed(_step|_sequence)?\b", "embedding"),
]
PRODUCT_CONTEXT = [
    (r"attention_core_backward", "attention products, backward"),
    (r"attention_core_forward|attend_int8|kv_attend", "attention"),
    (r"unembed\w*backward", "unembedding, backward"),
    (r"\bunembed\b|final_projection|unembedding", "unembedding"),
    (r"backward", "products, backward"),
]


# In a training step's backward pass (a frame named *backward* or a gradient's update<leaf>), a
# library function or helper (expf, erff, fmaxf, logf, sqrtf) counts to the backward kernel that
# called it, and the bias gradients, residuals and zeroing get their own rows; the forward's
# attribution is unchanged.
BACKWARD_CONTEXT = re.compile(r"backward|::update<")
BACKWARD_OWNERS = {"GELU backward", "softmax backward", "layer norm backward", "cross-entropy",
                   "optimiser"}
BACKWARD_RENAMED = {"bias, residual": "bias gradients, residuals (backward)",
                    "copies": "zeroing (backward)",
                    "layer norm": "layer norm, recomputed in the backward",
                    "softmax": "softmax, recomputed in the backward",
                    "GELU": "GELU, recomputed in the backward"}


# plain_train.c's functions (gpt_profile's plain C training step), by priority: the first pattern
# that any frame matches (pt_unembed before the pt_linear it calls, a backward before the expf or
# memset it calls)
PLAIN_TRAIN = [
    (r"^pt_unembed_backward\b", "unembedding, backward"), (r"^pt_unembed\b", "unembedding"),
    (r"^pt_gelu_backward\b", "GELU backward"), (r"^pt_layer_norm_backward\b", "layer norm backward"),
    (r"^pt_attention_backward\b", "attention, backward (plain C: products and softmax)"),
    (r"^pt_cross_entropy_backward\b", "cross-entropy"), (r"^pt_linear_backward\b", "products, backward"),
    (r"^pt_sgd\b", "optimiser"), (r"^pt_embed_backward\b", "bias gradients, residuals (backward)"),
    (r"^pt_embed\b", "embedding"), (r"^pt_gelu\b", "GELU"), (r"^pt_layer_norm\b", "layer norm"),
    (r"^pt_attention\b", "attention (plain C: products and softmax)"),
    (r"^pt_linear\b", "products (W_q, W_k, W_v, W_o, W_1, W_2)"),
    (r"^memset$", "zeroing (backward)"), (r"^plain_sgd_step$", "residuals (plain C)"),
]


@functools.lru_cache(maxsize=None)
def kernel_of(frames):
    """frames: function names, innermost first (a tuple)."""
    if any(f.startswith(("pt_", "plain_sgd_step")) for f in frames):
        for pat, plain in PLAIN_TRAIN:
            if any(re.search(pat, f) for f in frames):
                return plain
    name = forward_kernel_of(frames)
    if not any(BACKWARD_CONTEXT.search(f) for f in frames):
        return name
    for f in frames:
        hit = next((k for pat, k in KERNELS if re.search(pat, f)), None)
        if hit in BACKWARD_OWNERS:
            return hit
        if hit:
            break
    return BACKWARD_RENAMED.get(name, name)


def forward_kernel_of(frames):
    for pat, name in LIBRARY:
        if re.search(pat, frames[0]):
            return name
    for i, f in enumerate(frames):
        for pat, name in KERNELS:
            m = re.search(pat, f)
            if not m:
                continue
            if name != "product":
                return name
            outer = " ".join(frames[i + 1:])
            for cpat, cname in PRODUCT_CONTEXT:
                if re.search(cpat, outer):
                    if cname == "attention":
                        return "attention Kᵀq" if re.search(r"gemm_tn|gemv_t|_dot", f) else \
                            "attention V·α"
                    return cname
            return "products (W_q, W_k, W_v, W_o, W_1, W_2)"
    return "other"


def frames_of(addr2line, elf, pcs):
    """pc -> [function names, innermost first] (addr2line -i -f -C)."""
    if not pcs:
        return {}
    with tempfile.NamedTemporaryFile("w", delete=False) as f:
        f.write("\n".join(f"0x{pc:x}" for pc in pcs))
        name = f.name
    try:
        out = subprocess.run([addr2line, "-e", elf, "-i", "-f", "-C", "-a", "@" + name],
                             check=True, capture_output=True, text=True).stdout
    finally:
        os.unlink(name)
    result, pc = {}, None
    lines = out.splitlines()
    i = 0
    while i < len(lines):
        if re.fullmatch(r"0x[0-9a-f]+", lines[i]):
            pc = int(lines[i], 16)
            result[pc] = []
            i += 1
            continue
        result[pc].append(lines[i])  # function; the next line is file:line
        i += 2
    return result


# ---- a run ---------------------------------------------------------------------------------------
def parse_records(path, pipes=None):
    """The plugin's regions: a list of {(pc, chain): [class, n, regs, not_taken, m55_cycles]},
    chain being the return addresses of the calls the instruction was reached through, innermost
    first; m55_cycles (with pipes, mve_pipes' map) the M55 estimate of those executions."""
    blocks, chains, regions, cur, m55_costs = {}, {0: ()}, [], None, {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if w[0] == "e":
                b, c, start, n, nt = (int(x) for x in w[1:])
                insns = blocks[b]
                ch = chains[c]
                last = len(insns) - 1
                costs = m55_costs.get(b)
                for i in range(start, last + 1):
                    pc, cls, r = insns[i]
                    slot = cur.get((pc, ch))
                    if slot is None:
                        slot = cur[(pc, ch)] = [cls, 0, 0, 0, 0]
                    slot[1] += n
                    slot[2] += n * r
                    if costs:
                        slot[4] += n * costs[i]
                    if i == last:
                        slot[3] += nt
                        if costs and cls == "bcond":
                            slot[4] -= nt  # not taken: 1 cycle
            elif w[0] == "b":
                blocks[int(w[1])] = [(int(pc, 16), cls, int(r)) for pc, cls, r in
                                     (x.split(":") for x in w[2:])]
                if pipes is not None:
                    m55_costs[int(w[1])] = m55_block_cycles(blocks[int(w[1])], pipes)
            elif w[0] == "c":
                chains[int(w[1])] = (int(w[3], 16),) + chains[int(w[2])]
            elif w[0] == "region":
                cur = {}
            elif w[0] == "end":
                regions.append(cur)
            elif w[0] == "unclosed":
                sys.exit("FAIL: the firmware left a region open")
    return regions


def run(a):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "mix.txt")
        plugin = f"{a.plugin},out={out}" + (",mve=on" if a.mve else "")
        cmd = [a.qemu, "-M", a.machine, "-display", "none", "-serial", "null", "-monitor", "none",
               "-semihosting-config", "enable=on,target=native", "-icount", "shift=0",
               "-kernel", a.elf, "-plugin", plugin]
        try:
            p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, timeout=a.timeout)
        except subprocess.TimeoutExpired:
            sys.exit(f"FAIL: timed out after {a.timeout} s: {' '.join(cmd)}")
        if p.returncode != 0:
            sys.stdout.write(p.stdout)
            sys.exit(f"FAIL: the firmware exited with {p.returncode}")
        regions = parse_records(out, mve_pipes(a.objdump, a.elf) if a.core == "m55" else None)
    labels = [l.split()[2:] for l in p.stdout.splitlines() if l.startswith("info region ")]
    if len(labels) != len(regions):
        sys.exit(f"FAIL: {len(regions)} regions counted, {len(labels)} named by the firmware")
    return p.stdout, labels, regions


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--weights", action="store_true")
    ap.add_argument("--weights-m55", action="store_true")
    ap.add_argument("--self-test", action="store_true", help="the M55 model's own check")
    ap.add_argument("--qemu")
    ap.add_argument("--machine")
    ap.add_argument("--plugin")
    ap.add_argument("--addr2line")
    ap.add_argument("--objdump", help="default: the addr2line's sibling (the M55's pipes)")
    ap.add_argument("--elf")
    ap.add_argument("--core", choices=["m4", "m7", "m55"])
    ap.add_argument("--mve", action="store_true")
    ap.add_argument("--check", action="append", default=[])
    ap.add_argument("--json")
    ap.add_argument("--timeout", type=float, default=300)
    a = ap.parse_args()
    if a.weights:
        print(weights_markdown())
        return
    if a.weights_m55:
        print(weights_m55_markdown())
        return
    if a.self_test:
        sys.exit(0 if m55_self_test() else 1)
    if a.core == "m55" and not a.objdump:
        a.objdump = re.sub(r"addr2line$", "objdump", a.addr2line)

    output, labels, regions = run(a)
    # every address and every call site (a return address less 2: inside the BL or BLX)
    pcs = sorted({pc for r in regions for pc, _ in r} |
                 {ret - 2 for r in regions for _, ch in r for ret in ch})
    frames = frames_of(a.addr2line, a.elf, pcs)
    kernel = {}
    for r in regions:
        for key in r:
            if key not in kernel:
                pc, ch = key
                fr = list(frames.get(pc) or ["?"])
                for ret in ch:
                    fr += frames.get(ret - 2) or ["?"]
                kernel[key] = kernel_of(tuple(fr))

    # label -> totals
    groups = collections.OrderedDict()
    overhead = 0  # QEMU's instructions around an empty region (profile::calibrate)
    for words, rec in zip(labels, regions):
        label = words[0]
        kv = dict(zip(words[1::2], words[2::2]))
        if label == "calibrate":
            overhead = int(kv["icount"]) - sum(v[1] for v in rec.values())
            continue
        g = groups.setdefault(label, {"tokens": 0, "macs": 0, "mix": collections.Counter(),
                                      "extra": collections.Counter(),
                                      "kernels": collections.defaultdict(
                                          lambda: [0, collections.Counter(),
                                                   collections.Counter(), 0]),
                                      "m55": 0})
        g["tokens"] += int(kv.get("tokens", 1))
        g["macs"] += int(kv.get("macs", 0))
        # The plugin's count against QEMU's (-icount, read through SysTick to 40 instructions,
        # less the reads' own instructions, which profile::calibrate measured to 40 as well).
        counted = sum(v[1] for v in rec.values())
        if "icount" in kv and abs(counted - (int(kv["icount"]) - overhead)) > 80:
            sys.exit(f"FAIL: region {label}: the plugin counted {counted} instructions, "
                     f"QEMU {kv['icount']} less {overhead}")
        for key, (cls, n, regs, nt, c55) in rec.items():
            e = nt if cls == "bcond" else regs
            g["mix"][cls] += n
            g["extra"][cls] += e
            g["m55"] += c55
            k = g["kernels"][kernel[key]]
            k[0] += n
            k[1][cls] += n
            k[2][cls] += e
            k[3] += c55

    def cycles(mix, extra, m55=None):
        m = {c: (mix[c], extra[c]) for c in mix}
        if a.core == "m4":
            return cycles_m4(m)
        if a.core == "m7":
            return cycles_m7(m)
        return m55  # the M55's: summed per executed instruction (m55_block_cycles)

    summary = {}
    for label, g in groups.items():
        t = g["tokens"]
        insns = sum(g["mix"].values())
        cyc = cycles(g["mix"], g["extra"], g["m55"])
        macs = g["macs"]
        summary[label] = {"insns_per_token": insns / t, "macs_per_token": macs / t,
                          "insns_per_mac": insns / macs if macs else None,
                          "cycles_per_token": cyc / t if cyc is not None else None,
                          "kernels": {}}
        print(f"\n## {label} ({a.core}): {t} tokens, {macs / t:,.0f} multiply-adds per token")
        head = "| kernel | instructions per token | share |"
        if cyc is not None:
            head += " est. cycles per token |"
        print(head)
        print("|---|---|---|" + ("---|" if cyc is not None else ""))
        for name, (n, mix, extra, c55) in sorted(g["kernels"].items(), key=lambda kv: -kv[1][0]):
            c = cycles(mix, extra, c55)
            summary[label]["kernels"][name] = {"insns_per_token": n / t,
                                               "cycles_per_token": c / t if c is not None else None,
                                               "mix": {k: v / t for k, v in mix.items()}}
            row = f"| {name} | {n / t:,.0f} | {100 * n / insns:.1f} % |"
            if c is not None:
                row += f" {c / t:,.0f} |"
            print(row)
        line = f"| **whole token** | **{insns / t:,.0f}** | |"
        if cyc is not None:
            line += f" **{cyc / t:,.0f}** |"
        print(line)
        if macs:
            print(f"instructions per multiply-add: {insns / macs:.3f}" +
                  (f"; estimated cycles per multiply-add: {cyc / macs:.3f}" if cyc else ""))
        mix = ", ".join(f"{k} {v / t:,.0f}" for k, v in g["mix"].most_common())
        print(f"mix per token: {mix}")

    if a.json:
        with open(a.json, "w") as f:
            json.dump({"core": a.core, "regions": summary}, f, indent=1)

    failed = []
    for check in a.check:
        m = re.fullmatch(r"\s*(\S+)\s+insns/mac\s*<=\s*([0-9.]+)\s*", check)
        if m:
            s = summary[m[1]]
            ok = s["insns_per_mac"] <= float(m[2])
            print(f"check {m[1]}: {s['insns_per_mac']:.3f} instructions per multiply-add "
                  f"<= {m[2]}: {'ok' if ok else 'FAILED'}")
            failed += [] if ok else [check]
            continue
        m = re.fullmatch(r"\s*(\S+)/(\S+)\s+cycles\s*>=\s*([0-9.]+)\s*", check)
        if m:
            fast, slow = summary[m[1]], summary[m[2]]
            ratio = slow["cycles_per_token"] / fast["cycles_per_token"]
            ok = ratio >= float(m[3])
            print(f"check {m[2]}/{m[1]}: {ratio:.2f}x the estimated cycles per token >= {m[3]}: "
                  f"{'ok' if ok else 'FAILED'}")
            failed += [] if ok else [check]
            continue
        m = re.fullmatch(r"\s*(\S+)\[(.+)\]\s+insns/token\s*<=\s*([0-9.]+)\s*", check)
        if m:
            k = summary[m[1]]["kernels"].get(m[2])
            n = k["insns_per_token"] if k else 0
            ok = k is not None and n <= float(m[3])
            print(f"check {m[1]}[{m[2]}]: {n:,.0f} instructions per token <= {m[3]}: "
                  f"{'ok' if ok else 'FAILED' + ('' if k else ' (no such kernel)')}")
            failed += [] if ok else [check]
            continue
        sys.exit(f"bad --check {check!r}")
    if failed:
        sys.exit("FAIL: " + "; ".join(failed))


if __name__ == "__main__":
    main()
