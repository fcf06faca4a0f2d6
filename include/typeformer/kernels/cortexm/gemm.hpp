// Cortex-M4F / M7 float products (FPv4-SP, FPv5) on raw column-major storage; the signatures of
// kernels/scalar/gemm.hpp, which is their reference (and runs for double).
//
//   gemm_nn  C (m, n) ←/+= A (m, k) · B (k, n)     column by column: y ← A·x in blocks of rows
//   gemm_tn  C (m, n) ←/+= Aᵀ · B                  column by column: 4 dot products at a time
//   gemm_nt  C (m, n) ←/+= A · Bᵀ                  as gemm_nn, B's row gathered on the stack
//   gemv_n, gemv_t
//
// A decoding step is all matrix-vector products (n = 1), each weight used once, so what counts
// is instructions per multiply-add: one VFMA each, and one VLDM for many weights. GCC emits one
// VLDR per float (two instructions per multiply-add at best), so the inner loops are inline
// assembly. y ← A·x: a block of 12, 8 or 4 rows of y stays in s0–s11 while a VLDM brings the
// block's column of A into s16–s27 and another 4 entries of x into s28–s31: 59 instructions per
// 48 multiply-adds. Aᵀ·x (attention's Kᵀq): 4 sums in s0–s3, x and each column 8 entries per
// VLDM: 39 instructions per 32. The bias and the residual of the epilogue are added to the
// registers before the one store. Every entry of C is one chain of VFMAs over k in order, then
// + bias, then + residual, as in the reference (whose chain rounds each product: FMA contraction
// is off in ISO C++).
#pragma once

// Assembly for the Armv7E-M / Armv8-M Mainline FPU and DSP extension: elsewhere (a host, or a
// tool that reads every header) this header declares nothing; kernels/backend.hpp includes it
// only for such a core (TYPEFORMER_CORTEXM).
#if defined(__ARM_ARCH_PROFILE) && __ARM_ARCH_PROFILE == 'M' && defined(__ARM_FP) && \
    defined(__ARM_FEATURE_DSP)

#include <cstddef>
#include <type_traits>

#include "../column_drivers.hpp"
#include "../scalar/gemm.hpp"

namespace typeformer::kernels::cortexm {

namespace detail {

inline constexpr float zeros[12] = {};

// clang-format off
#define TYPEFORMER_VFMA(acc, w, x) "vfma.f32 " acc ", " w ", " x "\n\t"
#define TYPEFORMER_VADD(acc, w) "vadd.f32 " acc ", " acc ", " w "\n\t"
#define TYPEFORMER_COL4(F, x) F("s0", "s16", x) F("s1", "s17", x) F("s2", "s18", x) F("s3", "s19", x)
#define TYPEFORMER_COL8(F, x) TYPEFORMER_COL4(F, x) \
    F("s4", "s20", x) F("s5", "s21", x) F("s6", "s22", x) F("s7", "s23", x)
#define TYPEFORMER_COL12(F, x) TYPEFORMER_COL8(F, x) \
    F("s8", "s24", x) F("s9", "s25", x) F("s10", "s26", x) F("s11", "s27", x)
#define TYPEFORMER_ADD1(acc, w, unused) TYPEFORMER_VADD(acc, w)

// After the sums: + bias, + residual (each when its pointer is not null), then the store.
#define TYPEFORMER_EPILOGUE(acc, w, COL)            \
    "cmp %[bias], #0\n\t"                           \
    "beq 5f\n\t"                                    \
    "vldmia %[bias], {" w "}\n\t"                   \
    COL(TYPEFORMER_ADD1, )                          \
    "5:\n\t"                                        \
    "cmp %[res], #0\n\t"                            \
    "beq 6f\n\t"                                    \
    "vldmia %[res], {" w "}\n\t"                    \
    COL(TYPEFORMER_ADD1, )                          \
    "6:\n\t"                                        \
    "vstmia %[out], {" acc "}\n"

// One column of a block of rows: its entries of A by one VLDM; A advances a column (ld bytes).
#define TYPEFORMER_NN_STEP(w, COL, x) \
    "vldmia %[a], {" w "}\n\t"        \
    "add %[a], %[a], %[ld]\n\t"       \
    COL(TYPEFORMER_VFMA, x)

// out ← in + A[0:R, 0:k]·x (+ bias + residual): 4 columns per pass, then one at a time.
#define TYPEFORMER_NN_BLOCK(acc, w, COL)                                  \
    "vldmia %[in], {" acc "}\n\t"                                       \
    "cmp %[k4], #0\n\t"                                                 \
    "beq 2f\n"                                                          \
    "1:\n\t"                                                            \
    "vldmia %[x]!, {s28-s31}\n\t"                                       \
    TYPEFORMER_NN_STEP(w, COL, "s28") TYPEFORMER_NN_STEP(w, COL, "s29") \
    TYPEFORMER_NN_STEP(w, COL, "s30") TYPEFORMER_NN_STEP(w, COL, "s31") \
    "subs %[k4], %[k4], #1\n\t"                                         \
    "bne 1b\n"                                                          \
    "2:\n\t"                                                            \
    "cmp %[k1], #0\n\t"                                                 \
    "beq 4f\n"                                                          \
    "3:\n\t"                                                            \
    "vldmia %[x]!, {s28}\n\t"                                           \
    TYPEFORMER_NN_STEP(w, COL, "s28")                                   \
    "subs %[k1], %[k1], #1\n\t"                                         \
    "bne 3b\n"                                                          \
    "4:\n\t"                                                            \
    TYPEFORMER_EPILOGUE(acc, w, COL)

// Dot products with x (8, 4 or 1 entries of it in s24–s31): one column's entries by one VLDM.
#define TYPEFORMER_DOT8(acc, col)                                             \
    "vldmia " col "!, {s16-s23}\n\t"                                        \
    TYPEFORMER_VFMA(acc, "s16", "s24") TYPEFORMER_VFMA(acc, "s17", "s25")   \
    TYPEFORMER_VFMA(acc, "s18", "s26") TYPEFORMER_VFMA(acc, "s19", "s27")   \
    TYPEFORMER_VFMA(acc, "s20", "s28") TYPEFORMER_VFMA(acc, "s21", "s29")   \
    TYPEFORMER_VFMA(acc, "s22", "s30") TYPEFORMER_VFMA(acc, "s23", "s31")
#define TYPEFORMER_DOT4(acc, col)                                             \
    "vldmia " col "!, {s16-s19}\n\t"                                        \
    TYPEFORMER_VFMA(acc, "s16", "s24") TYPEFORMER_VFMA(acc, "s17", "s25")   \
    TYPEFORMER_VFMA(acc, "s18", "s26") TYPEFORMER_VFMA(acc, "s19", "s27")
#define TYPEFORMER_DOT1(acc, col) \
    "vldmia " col "!, {s16}\n\t" TYPEFORMER_VFMA(acc, "s16", "s24")
#define TYPEFORMER_DOTS4(D) D("s0", "%[a0]") D("s1", "%[a1]") D("s2", "%[a2]") D("s3", "%[a3]")
#define TYPEFORMER_DOTS1(D) D("s0", "%[a0]")
#define TYPEFORMER_ROW4(F, unused) F("s0", "s16", ) F("s1", "s17", ) F("s2", "s18", ) F("s3", "s19", )
#define TYPEFORMER_ROW1(F, unused) F("s0", "s16", )

// out ← in + (columns a0, a1, ...)ᵀ·x (+ bias + residual), k entries each.
#define TYPEFORMER_TN_BLOCK(acc, w, DOTS, ROW) \
    "vldmia %[in], {" acc "}\n\t"            \
    "cmp %[k8], #0\n\t"                      \
    "beq 2f\n"                               \
    "1:\n\t"                                 \
    "vldmia %[x]!, {s24-s31}\n\t"            \
    DOTS(TYPEFORMER_DOT8)                    \
    "subs %[k8], %[k8], #1\n\t"              \
    "bne 1b\n"                               \
    "2:\n\t"                                 \
    "cmp %[k4], #0\n\t"                      \
    "beq 3f\n\t"                             \
    "vldmia %[x]!, {s24-s27}\n\t"            \
    DOTS(TYPEFORMER_DOT4)                    \
    "3:\n\t"                                 \
    "cmp %[k1], #0\n\t"                      \
    "beq 4f\n"                               \
    "7:\n\t"                                 \
    "vldmia %[x]!, {s24}\n\t"                \
    DOTS(TYPEFORMER_DOT1)                    \
    "subs %[k1], %[k1], #1\n\t"              \
    "bne 7b\n"                               \
    "4:\n\t"                                 \
    TYPEFORMER_EPILOGUE(acc, w, ROW)

#define TYPEFORMER_CLOBBERS                                                                  \
    "s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "s16", "s17",  \
    "s18", "s19", "s20", "s21", "s22", "s23", "s24", "s25", "s26", "s27", "s28", "s29",      \
    "s30", "s31", "cc", "memory"
// clang-format on

// The R rows from a of y = A·x: A column-major (ld bytes between columns), k columns; in is
// y's start (y itself, or zeros), out its R entries; bias and residual may be null.
template <int R>
inline void nn_block(std::size_t k, const float* a, std::size_t ld, const float* x, const float* in,
                     float* out, const float* bias, const float* res) noexcept {
    std::size_t k4 = k / 4, k1 = k % 4;
#define TYPEFORMER_OPERANDS                                                        \
    : [a] "+r"(a), [x] "+r"(x), [k4] "+r"(k4), [k1] "+r"(k1)                                \
    : [ld] "r"(ld), [in] "r"(in), [out] "r"(out), [bias] "r"(bias), [res] "r"(res)           \
    : TYPEFORMER_CLOBBERS
    if constexpr (R == 4)
        asm volatile(TYPEFORMER_NN_BLOCK("s0-s3", "s16-s19", TYPEFORMER_COL4) TYPEFORMER_OPERANDS);
    else if constexpr (R == 8)
        asm volatile(TYPEFORMER_NN_BLOCK("s0-s7", "s16-s23", TYPEFORMER_COL8) TYPEFORMER_OPERANDS);
    else
        asm volatile(TYPEFORMER_NN_BLOCK("s0-s11", "s16-s27", TYPEFORMER_COL12)
                         TYPEFORMER_OPERANDS);
#undef TYPEFORMER_OPERANDS
}

// C (4 or 1) dot products: out[c] ← in[c] + A[:, c]·x (+ bias + residual), the columns of A
// ld bytes apart, k entries each.
template <int C>
inline void tn_block(std::size_t k, const float* a, std::size_t ld, const float* x, const float* in,
                     float* out, const float* bias, const float* res) noexcept {
    std::size_t k8 = k / 8, k4 = (k % 8) / 4, k1 = k % 4;
    if constexpr (C == 1) {
        asm volatile(TYPEFORMER_TN_BLOCK("s0", "s16", TYPEFORMER_DOTS1, TYPEFORMER_ROW1)
                     : [a0] "+r"(a), [x] "+r"(x), [k8] "+r"(k8), [k1] "+r"(k1)
                     : [k4] "r"(k4), [in] "r"(in), [out] "r"(out), [bias] "r"(bias), [res] "r"(res)
                     : TYPEFORMER_CLOBBERS);
    } else {
        static_assert(C == 4);
        const float* a1 = a + ld / sizeof(float);
        const float* a2 = a1 + ld / sizeof(float);
        const float* a3 = a2 + ld / sizeof(float);
        asm volatile(TYPEFORMER_TN_BLOCK("s0-s3", "s16-s19", TYPEFORMER_DOTS4, TYPEFORMER_ROW4)
                     : [a0] "+r"(a), [a1] "+r"(a1), [a2] "+r"(a2), [a3] "+r"(a3), [x] "+r"(x),
                       [k8] "+r"(k8), [k1] "+r"(k1)
                     : [k4] "r"(k4), [in] "r"(in), [out] "r"(out), [bias] "r"(bias), [res] "r"(res)
                     : TYPEFORMER_CLOBBERS);
    }
}

#undef TYPEFORMER_CLOBBERS
#undef TYPEFORMER_TN_BLOCK
#undef TYPEFORMER_ROW1
#undef TYPEFORMER_ROW4
#undef TYPEFORMER_DOTS1
#undef TYPEFORMER_DOTS4
#undef TYPEFORMER_DOT1
#undef TYPEFORMER_DOT4
#undef TYPEFORMER_DOT8
#undef TYPEFORMER_NN_BLOCK
#undef TYPEFORMER_NN_STEP
#undef TYPEFORMER_EPILOGUE
#undef TYPEFORMER_ADD1
#undef TYPEFORMER_COL12
#undef TYPEFORMER_COL8
#undef TYPEFORMER_COL4
#undef TYPEFORMER_VADD
#undef TYPEFORMER_VFMA

// The epilogue's parts for rows [i, ...) of column j, or null.
struct epilogue_at {
    const float *bias, *res;
    epilogue_at(const gemm_epilogue<float>& ep, std::size_t i, std::size_t j) noexcept
        : bias(ep.has_bias() ? ep.bias_at(i) : nullptr),
          res(ep.has_residual() ? ep.residual_at(i, j) : nullptr) {}
};

// One row the blocks leave over: the reference's chain, with FMAs.
inline void one_row(std::size_t k, const float* a, std::size_t stride, const float* x, float* y,
                    bool accumulate, const epilogue_at& e) noexcept {
    float c = accumulate ? *y : 0.0f;
    for (std::size_t p = 0; p < k; ++p)
        c = __builtin_fmaf(a[p * stride], x[p], c);
    if (e.bias)
        c += *e.bias;
    if (e.res)
        c += *e.res;
    *y = c;
}

// y (rows) ←/+= A (rows, k)·x, + the epilogue of column j: blocks of 12 rows, then 8, 4, 1.
inline void gemv_n_column(std::size_t rows, std::size_t k, const float* A, std::size_t lda,
                          const float* x, float* y, bool accumulate, const gemm_epilogue<float>& ep,
                          std::size_t j) noexcept {
    const std::size_t ld = lda * sizeof(float);
    std::size_t i = 0;
    for (; i + 12 <= rows; i += 12) {
        const epilogue_at e(ep, i, j);
        nn_block<12>(k, A + i, ld, x, accumulate ? y + i : zeros, y + i, e.bias, e.res);
    }
    if (i + 8 <= rows) {
        const epilogue_at e(ep, i, j);
        nn_block<8>(k, A + i, ld, x, accumulate ? y + i : zeros, y + i, e.bias, e.res);
        i += 8;
    }
    if (i + 4 <= rows) {
        const epilogue_at e(ep, i, j);
        nn_block<4>(k, A + i, ld, x, accumulate ? y + i : zeros, y + i, e.bias, e.res);
        i += 4;
    }
    for (; i < rows; ++i)
        one_row(k, A + i, lda, x, y + i, accumulate, epilogue_at(ep, i, j));
}

// y (rows) ←/+= Aᵀ·x for A stored (k, rows), + the epilogue of column j: 4 columns of A at a
// time, then one.
inline void gemv_t_column(std::size_t rows, std::size_t k, const float* A, std::size_t lda,
                          const float* x, float* y, bool accumulate, const gemm_epilogue<float>& ep,
                          std::size_t j) noexcept {
    const std::size_t ld = lda * sizeof(float);
    std::size_t i = 0;
    for (; i + 4 <= rows; i += 4) {
        const epilogue_at e(ep, i, j);
        tn_block<4>(k, A + i * lda, ld, x, accumulate ? y + i : zeros, y + i, e.bias, e.res);
    }
    for (; i < rows; ++i) {
        const epilogue_at e(ep, i, j);
        tn_block<1>(k, A + i * lda, ld, x, accumulate ? y + i : zeros, y + i, e.bias, e.res);
    }
}

}  // namespace detail

TYPEFORMER_COLUMN_PRODUCTS

}  // namespace typeformer::kernels::cortexm

#endif
