/* A QEMU TCG plugin (API version 1, QEMU 7.2) that classifies every executed Thumb instruction of
 * an Armv7E-M or Armv8.1-M guest and counts it, with the calls it was reached through, inside the
 * regions the firmware marks with `dbg #1` (enter) and `dbg #2` (leave). measure.py maps the
 * addresses to the (inlined) functions they belong to and turns the counts into instructions per
 * token, per multiply-add and estimated cycles, per kernel (docs/kernels.md).
 *
 *   qemu-system-arm ... -plugin ./libinsn_mix.so,out=FILE[,mve=on]
 *
 * At each `dbg #2`, one record is appended to FILE:
 *
 *   region <n>
 *   b <block> <pc>:<class>:<regs> ...    a translation block's instructions, once per block
 *   c <context> <parent> <return pc>     a call context, once per context (0: outside any call)
 *   e <block> <context> <from> <n> <nt>  the block ran n times in that context, from its
 *                                        instruction <from> on; nt: times its last instruction,
 *                                        a conditional branch, was not taken
 *   end
 *
 * <regs> is the registers (32-bit words) a load or store multiple moves. mve=on decodes
 * Armv8.1-M's low-overhead loops (Cortex-M55).
 *
 * QEMU's plugin header is not in Debian's packages; the declarations used here are written out
 * from its documented API (include/qemu/qemu-plugin.h of QEMU 7.2, QEMU_PLUGIN_VERSION 1). */
#define _POSIX_C_SOURCE 200809L
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the QEMU plugin API, version 1 (what is used) ---- */
typedef uint64_t qemu_plugin_id_t;
typedef struct {
    const char* target_name;
    struct {
        int min, cur;
    } version;
    bool system_emulation;
    union {
        struct {
            int smp_vcpus, max_vcpus;
        } system;
    };
} qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_CB_R_REGS, QEMU_PLUGIN_CB_RW_REGS };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t, struct qemu_plugin_tb*);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void* userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t, void* userdata);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t, qemu_plugin_vcpu_tb_trans_cb_t);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb*, qemu_plugin_vcpu_udata_cb_t,
                                          enum qemu_plugin_cb_flags, void*);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn*, qemu_plugin_vcpu_udata_cb_t,
                                            enum qemu_plugin_cb_flags, void*);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t, qemu_plugin_udata_cb_t, void*);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb*);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb*);
struct qemu_plugin_insn* qemu_plugin_tb_get_insn(const struct qemu_plugin_tb*, size_t);
const void* qemu_plugin_insn_data(const struct qemu_plugin_insn*);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn*);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn*);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

/* ---- instruction classes (measure.py weights them) ---- */
#define CLASSES(X)                                                                          \
    X(alu)       /* data processing, moves, compares, extends, bit fields, ADR */           \
    X(it)        /* IT */                                                                   \
    X(mul)       /* MUL, MLA, MLS, long multiplies, SMLA<x><y>, SMLAD, SMUAD, SMMLA ... */  \
    X(dsp)       /* SIMD, packing, saturation: SXTB16, SXTAB16, SADD16, QADD, SSAT ... */   \
    X(div)       /* SDIV, UDIV */                                                           \
    X(ldr)       /* a load of one register (any size; PLD) */                               \
    X(ldrd)      /* LDRD */                                                                 \
    X(ldm)       /* LDM, POP; extra: the registers */                                       \
    X(str)       /* a store of one register */                                              \
    X(strd)      /* STRD */                                                                 \
    X(stm)       /* STM, PUSH; extra: the registers */                                      \
    X(b)         /* B, BL, BX, BLX, TBB, TBH, MOV PC */                                     \
    X(bcond)     /* B<c>, CBZ, CBNZ; extra: not taken */                                    \
    X(ldpc)      /* LDR, LDM or POP that loads the PC; extra: the registers */              \
    X(valu)      /* VADD, VSUB, VMUL, VNMUL, VNEG, VABS, VCMP, VCVT, VMOV (reg, imm) ... */ \
    X(vmac)      /* VMLA, VMLS, VNMLA, VNMLS, VFMA, VFMS, VFNMA, VFNMS */                   \
    X(vdiv)      /* VDIV, VSQRT */                                                          \
    X(vldr)      /* VLDR */                                                                 \
    X(vstr)      /* VSTR */                                                                 \
    X(vldm)      /* VLDM, VPOP; extra: the 32-bit words */                                  \
    X(vstm)      /* VSTM, VPUSH; extra: the 32-bit words */                                 \
    X(vmov)      /* VMOV between core and FP registers */                                   \
    X(vmrs)      /* VMRS, VMSR */                                                           \
    X(mve_ld)    /* MVE vector loads (VLDRB/H/W, VLD2x, VLD4x, gathers) */                  \
    X(mve_st)    /* MVE vector stores */                                                    \
    X(mve_mac)   /* MVE multiply-accumulates: VFMA, VMLA, VMLADAV, VMLALDAV, VMLAV ... */   \
    X(mve_other) /* other MVE instructions (VMUL, VADD, VCVT, VDUP, VCTP, VPST, ...) */     \
    X(lob)       /* low-overhead branches: WLS, DLS, LE, LETP, WLSTP, DLSTP, LCTP */        \
    X(other)     /* NOP, hints, DBG, BKPT, SVC, barriers, MRS, MSR, CPS, UDF */             \
    X(unknown)

#define ENUM(n) C_##n,
enum klass { CLASSES(ENUM) N_CLASSES };
#undef ENUM
#define NAME(n) #n,
static const char* const class_names[] = {CLASSES(NAME)};
#undef NAME

static unsigned popcount16(unsigned v) {
    return (unsigned)__builtin_popcount(v & 0xFFFFu);
}

/* What one instruction is: its class, the count of registers or words it moves (0 if none),
 * whether it is a conditional branch, an unconditional change of flow, or a region marker. */
struct decoded {
    enum klass k;
    unsigned regs;
    bool cond_branch, branch, call;
    int marker; /* 1: dbg #1, 2: dbg #2, 0: not a marker */
};

/* MVE (Armv8.1-M) lives in the coprocessor spaces: coprocessor 14/15 load/store and data
 * processing, and the 0xEFxx/0xFFxx (unconditional) forms. Only rough classes are kept: no cycle
 * weights are applied to the Cortex-M55 (measure.py reports its instructions only). */
static enum klass decode_mve(uint32_t w) {
    const unsigned hw1 = w >> 16;
    if ((hw1 & 0xEE00) == 0xEC00 && ((w >> 9) & 7) == 7) /* vector load/store (VLDR/VSTR, VLDn) */
        return ((hw1 >> 4) & 1) ? C_mve_ld : C_mve_st;
    if ((hw1 & 0xEE00) == 0xEC00 && ((w >> 9) & 7) == 6) /* VLDR/VSTR (gather/scatter forms) */
        return ((hw1 >> 4) & 1) ? C_mve_ld : C_mve_st;
    /* Multiply-accumulates. VFMA/VFMS (vector): 111o 1111 0D0s nnnn dddd 1100 NQM1 mmmm;
     * VMLA/VMLAS (scalar): 111U 1110 0Dss nnnn ddd0 1110 -1-0 mmmm (VMLA), VFMA scalar:
     * 111s 1110 0D11 nnnn ddd0 1110 -1-0 mmmm; VMLADAV/VMLALDAV/VMLAV: 111U 1110 1... 1110 ... */
    if ((w & 0xEFA00F10) == 0xEF000C10)
        return C_mve_mac; /* VFMA / VFMS (vector) */
    if ((hw1 & 0xEF80) == 0xEE00 && (w & 0x0F50) == 0x0E40)
        return C_mve_mac; /* VMLA / VMLAS / VFMA / VFMAS (scalar) */
    if ((hw1 & 0xEF80) == 0xEE80 && (w & 0x0F01) == 0x0E00)
        return C_mve_mac; /* VMLADAV / VMLALDAV / VMLAV / VMLSDAV ... */
    if ((hw1 & 0xEF80) == 0xEE80 && (w & 0x0F01) == 0x0F00)
        return C_mve_mac;
    return C_mve_other;
}

/* The floating-point (FPv4/FPv5, coprocessor 10/11) and MVE instructions. */
static enum klass decode_coproc(uint32_t w, unsigned* regs) {
    const unsigned hw1 = w >> 16;
    const unsigned coproc = (w >> 8) & 0xF;
    if (coproc != 10 && coproc != 11)
        return decode_mve(w);
    if ((hw1 & 0xEE00) == 0xEC00) { /* extension register load/store, 64-bit transfers */
        const unsigned op = (hw1 >> 4) & 0x1F;
        if ((op & 0x1E) == 0x04)
            return C_vmov; /* VMOV two core registers <-> two singles / a double */
        const bool p = (hw1 >> 8) & 1, wb = (hw1 >> 5) & 1, load = (hw1 >> 4) & 1;
        if (p && !wb)
            return load ? C_vldr : C_vstr;
        *regs = w & 0xFF; /* imm8: words, for singles and doubles alike */
        return load ? C_vldm : C_vstm;
    }
    if ((hw1 & 0xFF00) == 0xFE00)
        return C_valu; /* VSEL, VMAXNM, VMINNM, VRINT{A,N,P,M}, VCVT{A,N,P,M} (FPv5) */
    if ((hw1 & 0xFF00) == 0xEE00) {
        if ((w >> 4) & 1) { /* 8, 16, 32-bit transfers */
            const unsigned opc = (hw1 >> 5) & 7;
            return opc == 7 ? C_vmrs : C_vmov;
        }
        /* data processing: opc1 = w[23], w[21:20]; opc3 = w[7:6]; opc2 = w[19:16] */
        const unsigned opc1 = (((w >> 23) & 1) << 2) | ((w >> 20) & 3);
        const unsigned opc2 = (w >> 16) & 0xF, opc3 = (w >> 6) & 3;
        switch (opc1) {
            case 0: /* VMLA, VMLS */
            case 1: /* VNMLA, VNMLS */
            case 5: /* VFNMA, VFNMS */
            case 6: /* VFMA, VFMS */
                return C_vmac;
            case 4: /* VDIV */
                return C_vdiv;
            case 7:
                return (opc2 == 1 && opc3 == 3) ? C_vdiv : C_valu; /* VSQRT; else VMOV, VABS, ...*/
            default:                                               /* VMUL, VNMUL, VADD, VSUB */
                return C_valu;
        }
    }
    return decode_mve(w);
}

static struct decoded decode16(unsigned h) {
    struct decoded d = {C_alu, 0, false, false, false, 0};
    const unsigned op6 = h >> 10;
    if ((op6 & 0x30) == 0x00)
        return d; /* shift, add, subtract, move, compare */
    if (op6 == 0x10) {
        if (((h >> 6) & 0xF) == 0xD)
            d.k = C_mul; /* MULS */
        return d;
    }
    if (op6 == 0x11) { /* special data processing, BX, BLX */
        const unsigned op = (h >> 6) & 0xF;
        if ((op & 0xC) == 0xC)
            d.k = C_b, d.branch = true, d.call = (h >> 7) & 1; /* BX, BLX */
        else if ((op & 0xC) == 0x8 && (h & 0x87) == 0x87)
            d.k = C_b, d.branch = true; /* MOV PC, Rm */
        return d;
    }
    if ((op6 & 0x3E) == 0x12) {
        d.k = C_ldr; /* LDR (literal) */
        return d;
    }
    if ((op6 & 0x3C) == 0x14) { /* load/store (register offset) */
        const unsigned opb = (h >> 9) & 7;
        d.k = opb < 3 ? C_str : C_ldr;
        return d;
    }
    if ((op6 & 0x38) == 0x18 || (op6 & 0x38) == 0x20) { /* load/store (immediate, SP-relative) */
        d.k = ((h >> 11) & 1) ? C_ldr : C_str;
        return d;
    }
    if ((op6 & 0x3E) == 0x28 || (op6 & 0x3E) == 0x2A)
        return d;               /* ADR, ADD (SP plus immediate) */
    if ((op6 & 0x3C) == 0x2C) { /* miscellaneous */
        const unsigned op7 = (h >> 5) & 0x7F;
        if ((op7 & 0x78) == 0x20 || (op7 & 0x78) == 0x28) { /* PUSH: 1011 010M */
            d.k = C_stm, d.regs = popcount16(h & 0xFF) + ((h >> 8) & 1);
            return d;
        }
        if ((op7 & 0x78) == 0x60 || (op7 & 0x78) == 0x68) { /* POP: 1011 110P */
            d.k = C_ldm, d.regs = popcount16(h & 0xFF) + ((h >> 8) & 1);
            d.branch = (h >> 8) & 1;
            return d;
        }
        if ((op7 & 0x28) == 0x08) { /* CBZ, CBNZ: 1011 o0i1 */
            d.k = C_bcond, d.cond_branch = true;
            return d;
        }
        if ((h & 0xFF00) == 0xBE00) {
            d.k = C_other; /* BKPT */
            return d;
        }
        if ((h & 0xFF00) == 0xBF00) {
            d.k = (h & 0xF) ? C_it : C_other; /* IT; NOP, YIELD, WFE, WFI, SEV */
            return d;
        }
        if ((h & 0xFFE0) == 0xB660) {
            d.k = C_other; /* CPS */
            return d;
        }
        return d; /* ADD/SUB SP, SXTH, SXTB, UXTH, UXTB, REV */
    }
    if ((op6 & 0x3E) == 0x30) { /* STM */
        d.k = C_stm, d.regs = popcount16(h & 0xFF);
        return d;
    }
    if ((op6 & 0x3E) == 0x32) { /* LDM */
        d.k = C_ldm, d.regs = popcount16(h & 0xFF);
        return d;
    }
    if ((op6 & 0x3C) == 0x34) { /* B<c>, UDF, SVC */
        const unsigned cond = (h >> 8) & 0xF;
        if (cond >= 0xE)
            d.k = C_other;
        else
            d.k = C_bcond, d.cond_branch = true;
        return d;
    }
    d.k = C_b, d.branch = true; /* 11100: B */
    return d;
}

static struct decoded decode32(uint32_t w) {
    struct decoded d = {C_alu, 0, false, false, false, 0};
    const unsigned hw1 = w >> 16, hw2 = w & 0xFFFF;
    const unsigned op1 = (hw1 >> 11) & 3, op2 = (hw1 >> 4) & 0x7F, op = hw2 >> 15;
    if (op1 == 1) {
        if ((op2 & 0x64) == 0x00) { /* load/store multiple */
            const bool load = (hw1 >> 4) & 1;
            d.k = load ? C_ldm : C_stm, d.regs = popcount16(hw2);
            d.branch = load && (hw2 >> 15);
            return d;
        }
        if ((op2 & 0x64) == 0x04) { /* load/store dual or exclusive, table branch */
            const unsigned o1 = (hw1 >> 7) & 3, o2 = (hw1 >> 4) & 3, o3 = (hw2 >> 4) & 0xF;
            if (o1 == 1 && o2 == 1 && (o3 == 0 || o3 == 1)) {
                d.k = C_b, d.branch = true; /* TBB, TBH */
                return d;
            }
            if ((o1 & 2) || (o2 & 2)) { /* LDRD, STRD */
                d.k = ((hw1 >> 4) & 1) ? C_ldrd : C_strd;
                return d;
            }
            d.k = ((hw1 >> 4) & 1) ? C_ldr : C_str; /* exclusive and its relatives */
            return d;
        }
        if ((op2 & 0x60) == 0x20)
            return d; /* data processing (shifted register) */
        d.k = decode_coproc(w, &d.regs);
        return d;
    }
    if (op1 == 2) {
        if (!op) { /* data processing (modified or plain binary immediate) */
            const unsigned op5 = (hw1 >> 4) & 0x1F;
            if ((op2 & 0x20) && (op5 == 0x10 || op5 == 0x12 || op5 == 0x18 || op5 == 0x1A))
                d.k = C_dsp; /* SSAT, SSAT16, USAT, USAT16 */
            return d;
        }
        const unsigned o1 = (hw2 >> 12) & 7;
        if ((o1 & 5) == 0) {                /* branches with op1 0x0, and misc control */
            if ((hw1 & 0x0380) != 0x0380) { /* B<c>.W */
                d.k = C_bcond, d.cond_branch = true;
                return d;
            }
            if ((hw1 & 0x07F0) == 0x03A0 && (hw2 & 0x0700) == 0) { /* hints */
                if ((hw2 & 0xFF) == 0xF1)
                    d.marker = 1;
                else if ((hw2 & 0xFF) == 0xF2)
                    d.marker = 2;
            }
            d.k = C_other; /* MSR, MRS, hints, barriers, UDF */
            return d;
        }
        d.k = C_b, d.branch = true, d.call = (o1 & 4) != 0; /* B.W; BL, BLX */
        return d;
    }
    /* op1 == 3 */
    if ((op2 & 0x71) == 0x00) {
        d.k = C_str; /* store single */
        return d;
    }
    if ((op2 & 0x67) == 0x01 || (op2 & 0x67) == 0x03 || (op2 & 0x67) == 0x05) {
        d.k = C_ldr; /* load byte (and PLD), halfword, word */
        if ((op2 & 0x67) == 0x05 && ((hw2 >> 12) & 0xF) == 0xF)
            d.branch = true; /* LDR PC */
        return d;
    }
    if ((op2 & 0x70) == 0x20) { /* data processing (register) */
        const unsigned o1 = (hw1 >> 4) & 0xF, o2 = (hw2 >> 4) & 0xF;
        if ((o1 & 0x8) == 0 && (o2 & 0x8)) {
            /* extends: SXTH, UXTH, SXTB16, UXTB16, SXTB, UXTB and their accumulating forms */
            const unsigned which = o1 & 0x7;
            d.k = (which == 2 || which == 3 || ((hw1 & 0xF) != 0xF)) ? C_dsp : C_alu;
            return d;
        }
        if ((o1 & 0x8) && (o2 & 0xC) == 0x0)
            d.k = C_dsp;                                 /* parallel add/subtract */
        else if ((o1 & 0xC) == 0x8 && (o2 & 0xC) == 0x8) /* QADD, QDADD, QSUB, QDSUB, SEL */
            d.k = (o1 == 0x8 || (o1 == 0xA && o2 == 0x8)) ? C_dsp : C_alu; /* REV, RBIT, CLZ */
        return d;
    }
    if ((op2 & 0x78) == 0x30) {
        d.k = C_mul; /* multiply, multiply accumulate, USAD8 */
        return d;
    }
    if ((op2 & 0x78) == 0x38) { /* long multiply, divide */
        const unsigned o1 = (hw1 >> 4) & 7, o2 = (hw2 >> 4) & 0xF;
        d.k = ((o1 == 1 || o1 == 3) && o2 == 0xF) ? C_div : C_mul;
        return d;
    }
    if (op2 & 0x40) {
        d.k = decode_coproc(w, &d.regs);
        return d;
    }
    d.k = C_unknown;
    return d;
}

/* Low-overhead loops (Armv8.1-M): WLS, DLS, WLSTP, DLSTP, LE, LETP, LCTP live in the branch space
 * of op1 == 2 with hw2 bit 12 set and hw1 0xF0xx / 0xF02x / 0xF00F / 0xF01F. */
static bool is_lob(uint32_t w) {
    const unsigned hw1 = w >> 16, hw2 = w & 0xFFFF;
    if ((hw1 & 0xFF80) == 0xF000 && (hw2 & 0xD001) == 0xC001)
        return true;                                             /* WLS, DLS, WLSTP, DLSTP */
    return (hw1 & 0xFFDF) == 0xF00F && (hw2 & 0xD001) == 0xC001; /* LE, LETP, LCTP */
}

/* An instruction's length, from its first halfword. (QEMU 7.2's plugin API can report a 16-bit
 * instruction as 4 bytes: the one before a 32-bit instruction that crosses a page, whose first
 * halfword the translator peeks at and appends to the previous instruction's bytes.) */
static size_t thumb_length(const uint8_t* p) {
    const unsigned hw1 = (unsigned)p[0] | ((unsigned)p[1] << 8);
    return (hw1 >> 11) >= 0x1D ? 4 : 2;
}

static struct decoded decode(const uint8_t* p, size_t size, bool mve) {
    const unsigned hw1 = (unsigned)p[0] | ((unsigned)p[1] << 8);
    if (size == 2)
        return decode16(hw1);
    const uint32_t w = ((uint32_t)hw1 << 16) | ((uint32_t)p[2] | ((uint32_t)p[3] << 8));
    if (mve && is_lob(w)) {
        struct decoded d = {C_lob, 0, false, true, false, 0};
        return d;
    }
    return decode32(w);
}

/* ---- counting: translation blocks, per call context ----
 *
 * Each executed block adds one to its count under the current call context: the chain of return
 * addresses of the BL/BLX calls not yet returned from (a call pushes its return address; a block
 * that starts at the innermost one pops it). So an out-of-line function is told apart by its
 * callers, and measure.py attributes every instruction to the inlined functions at its address
 * and at each return address of its chain. A region marker splits its block: the instructions
 * after a `dbg #1` count, those after a `dbg #2` do not (an entry from that index on, with -1). */
struct insn {
    uint64_t pc;
    enum klass k;
    unsigned regs;
};
struct block {
    size_t first, n; /* insns[first, first + n) */
    uint64_t vaddr, fallthrough;
    bool cond, written;
};
struct context {
    uint32_t parent;
    uint64_t ret;
    bool written;
};
struct entry {
    uint32_t block, ctx, from;
    int64_t n;
    uint64_t not_taken;
};

#define MAX_INSNS (1u << 20)
#define MAX_BLOCKS (1u << 18)
#define MAX_CONTEXTS (1u << 16)
#define MAX_ENTRIES (1u << 18)
static struct insn insns[MAX_INSNS];
static struct block blocks[MAX_BLOCKS];
static struct context contexts[MAX_CONTEXTS];
static struct entry entries[MAX_ENTRIES];
static size_t n_insns = 0, n_blocks = 0, n_contexts = 1, n_entries = 0; /* context 0: no call */
static uint32_t entry_table[2 * MAX_ENTRIES], context_table[2 * MAX_CONTEXTS];
static uint32_t ctx = 0;
static bool in_region = false, mve = false;
static unsigned regions = 0;
static FILE* out = NULL;
static struct entry* pending = NULL; /* the entry whose block ended in a conditional branch */
static uint64_t pending_call = 0;    /* the return address of a call just executed, or 0 */

static void full(const char* what) {
    fprintf(stderr, "insn_mix: too many %s\n", what);
    exit(2);
}

static uint32_t hash3(uint64_t a, uint64_t b, uint64_t c) {
    uint64_t h = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full ^
                 (c + 1) * 0x165667B19E3779F9ull;
    return (uint32_t)(h ^ (h >> 29));
}

static uint32_t child_context(uint32_t parent, uint64_t ret) {
    for (uint32_t h = hash3(parent, ret, 0) & (2 * MAX_CONTEXTS - 1);;
         h = (h + 1) & (2 * MAX_CONTEXTS - 1)) {
        if (context_table[h] == 0) {
            if (n_contexts == MAX_CONTEXTS)
                full("call contexts");
            contexts[n_contexts] = (struct context){parent, ret, false};
            context_table[h] = (uint32_t)n_contexts;
            return (uint32_t)n_contexts++;
        }
        const struct context* c = &contexts[context_table[h]];
        if (c->parent == parent && c->ret == ret)
            return context_table[h];
    }
}

static struct entry* entry_of(uint32_t block, uint32_t context, uint32_t from) {
    for (uint32_t h = hash3(block, context, from) & (2 * MAX_ENTRIES - 1);;
         h = (h + 1) & (2 * MAX_ENTRIES - 1)) {
        if (entry_table[h] == 0) {
            if (n_entries == MAX_ENTRIES)
                full("block entries in one region");
            entries[n_entries] = (struct entry){block, context, from, 0, 0};
            entry_table[h] = (uint32_t)++n_entries;
            return &entries[n_entries - 1];
        }
        struct entry* e = &entries[entry_table[h] - 1];
        if (e->block == block && e->ctx == context && e->from == from)
            return e;
    }
}

static void on_block(unsigned int vcpu, void* udata) {
    (void)vcpu;
    const uint32_t b = (uint32_t)(uintptr_t)udata;
    if (pending && blocks[b].vaddr == blocks[pending->block].fallthrough)
        ++pending->not_taken;
    pending = NULL;
    /* A call (which ends its block) went where it called unless its block fell through: a BL in
     * an IT block may not run. */
    if (pending_call && blocks[b].vaddr != pending_call)
        ctx = child_context(ctx, pending_call);
    pending_call = 0;
    /* A return: to the innermost call's return address, or to an outer one's (a callee that
     * returns for its caller too, as libgcc's soft-float routines' shared exits do). */
    for (uint32_t c = ctx, depth = 0; c != 0 && depth < 32; c = contexts[c].parent, ++depth)
        if (blocks[b].vaddr == contexts[c].ret) {
            ctx = contexts[c].parent;
            break;
        }
    if (!in_region)
        return;
    struct entry* e = entry_of(b, ctx, 0);
    ++e->n;
    if (blocks[b].cond)
        pending = e;
}

static void on_call(unsigned int vcpu, void* udata) {
    (void)vcpu;
    pending_call = (uint64_t)(uintptr_t)udata;
}

static void write_context(uint32_t c) {
    if (c == 0 || contexts[c].written)
        return;
    write_context(contexts[c].parent);
    fprintf(out, "c %u %u %llx\n", c, contexts[c].parent, (unsigned long long)contexts[c].ret);
    contexts[c].written = true;
}

static void write_region(void) {
    fprintf(out, "region %u\n", regions++);
    for (size_t i = 0; i < n_entries; ++i) {
        const struct entry* e = &entries[i];
        struct block* b = &blocks[e->block];
        if (!b->written) {
            fprintf(out, "b %u", e->block);
            for (size_t k = b->first; k < b->first + b->n; ++k)
                fprintf(out, " %llx:%s:%u", (unsigned long long)insns[k].pc,
                        class_names[insns[k].k], insns[k].regs);
            fprintf(out, "\n");
            b->written = true;
        }
        write_context(e->ctx);
        fprintf(out, "e %u %u %u %lld %llu\n", e->block, e->ctx, e->from, (long long)e->n,
                (unsigned long long)e->not_taken);
    }
    fprintf(out, "end\n");
    fflush(out);
}

/* udata: the block in the low 32 bits, the marker's index in the block above, the kind on top */
static void on_marker(unsigned int vcpu, void* udata) {
    (void)vcpu;
    const uint64_t u = (uint64_t)(uintptr_t)udata;
    const uint32_t b = (uint32_t)(u & 0xFFFFFFFFu), index = (uint32_t)((u >> 32) & 0xFFFFFFu);
    const unsigned kind = (unsigned)(u >> 56);
    if (kind == 1) {
        n_entries = 0;
        memset(entry_table, 0, sizeof entry_table);
        pending = NULL;
        in_region = true;
        if (index + 1 < blocks[b].n) {
            struct entry* e = entry_of(b, ctx, index + 1); /* the rest of this block counts */
            ++e->n;
            if (blocks[b].cond)
                pending = e;
        }
    } else if (in_region) {
        if (index + 1 < blocks[b].n)
            --entry_of(b, ctx, index + 1)->n; /* the rest of this block does not */
        pending = NULL;
        in_region = false;
        write_region();
    }
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb* tb) {
    (void)id;
    const size_t n = qemu_plugin_tb_n_insns(tb);
    if (n_blocks == MAX_BLOCKS)
        full("translation blocks");
    if (n_insns + n > MAX_INSNS)
        full("translated instructions");
    const uint32_t b = (uint32_t)n_blocks++;
    struct block* blk = &blocks[b];
    *blk = (struct block){n_insns, n, qemu_plugin_tb_vaddr(tb), 0, false, false};
    qemu_plugin_register_vcpu_tb_exec_cb(tb, on_block, QEMU_PLUGIN_CB_NO_REGS, (void*)(uintptr_t)b);
    for (size_t i = 0; i < n; ++i) {
        struct qemu_plugin_insn* insn = qemu_plugin_tb_get_insn(tb, i);
        const uint8_t* bytes = qemu_plugin_insn_data(insn);
        const size_t size = qemu_plugin_insn_size(insn) < 2 ? 2 : thumb_length(bytes);
        const uint64_t pc = qemu_plugin_insn_vaddr(insn);
        struct decoded d = decode(bytes, size, mve);
        if (d.branch && (d.k == C_ldm || d.k == C_ldr))
            d.k = C_ldpc;
        insns[n_insns++] = (struct insn){pc, d.k, d.regs};
        if (d.cond_branch && i + 1 == n)
            blk->cond = true, blk->fallthrough = pc + size;
        if (d.call)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_call, QEMU_PLUGIN_CB_NO_REGS,
                                                   (void*)(uintptr_t)(pc + size));
        if (d.marker)
            qemu_plugin_register_vcpu_insn_exec_cb(
                insn, on_marker, QEMU_PLUGIN_CB_NO_REGS,
                (void*)(uintptr_t)((uint64_t)d.marker << 56 | (uint64_t)i << 32 | b));
    }
}

static void on_exit(qemu_plugin_id_t id, void* udata) {
    (void)id, (void)udata;
    if (in_region)
        fprintf(out, "unclosed region\n");
    fclose(out);
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id,
                                                               const qemu_info_t* info, int argc,
                                                               char** argv) {
    const char* path = NULL;
    for (int i = 0; i < argc; ++i) {
        if (strncmp(argv[i], "out=", 4) == 0)
            path = argv[i] + 4;
        else if (strcmp(argv[i], "mve=on") == 0)
            mve = true;
        else {
            fprintf(stderr, "insn_mix: unknown argument %s (out=FILE, mve=on)\n", argv[i]);
            return 1;
        }
    }
    if (!path || !info->system_emulation || strcmp(info->target_name, "arm") != 0) {
        fprintf(stderr, "insn_mix: needs out=FILE, under qemu-system-arm\n");
        return 1;
    }
    out = fopen(path, "w");
    if (!out) {
        fprintf(stderr, "insn_mix: cannot write %s\n", path);
        return 1;
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_atexit_cb(id, on_exit, NULL);
    return 0;
}
