// Compile-time choice of the raw kernel layer.
//
//   typeformer::kernels::scalar   plain loops, always available: the reference of every other
//   typeformer::kernels::simd     xsimd 8.1 batches, only when xsimd is usable (hosts)
//   typeformer::kernels::cortexm  Arm M-profile with a single-precision FPU (Cortex-M4F, M7):
//                                 float products (VLDM + VFMA), GELU (and its backward),
//                                 softmax, cross-entropy; int8 products on
//                                 the DSP extension (kernels/cortexm/)
//   typeformer::kernels::helium   Arm M-profile with MVE (Helium: Cortex-M55, M85): float and
//                                 int8 products on 128-bit vectors (kernels/helium/)
//   typeformer::kernels::backend  what runs: the chosen layer's kernels, the scalar ones for the
//                                 rest; TYPEFORMER_SIMD, TYPEFORMER_CORTEXM, TYPEFORMER_HELIUM
//                                 are 0 or 1
//
// SIMD iff all of:
//   - TYPEFORMER_FORCE_SCALAR is not defined (or defined as 0),
//   - <xsimd/xsimd.hpp> is on the include path,
//   - a hosted implementation that is not newlib / bare-metal ARM EABI (xsimd 8.1's aligned
//     allocator calls posix_memalign, which newlib lacks, so the header does not even compile),
//   - xsimd finds an instruction set for the target (XSIMD_NO_SUPPORTED_ARCHITECTURE undefined).
// Else cortexm iff TYPEFORMER_FORCE_SCALAR is not set and the target is an M-profile Arm core
// (__ARM_ARCH_PROFILE 'M') with a single-precision FPU (__ARM_FP & 4) and the DSP extension
// (__ARM_FEATURE_DSP); helium iff, besides, MVE with its float form (__ARM_FEATURE_MVE & 2),
// which then takes the products over (the rest stays cortexm's). Like xsimd's, the choice is the
// compiler's flags (-mcpu=cortex-m4 -mfpu=fpv4-sp-d16, -mcpu=cortex-m55), not a run-time one.
// The scalar layer is compiled in every case, so tests can compare the paths.
#pragma once

#include <cstddef>
#include <cstdlib>  // pulls in <newlib.h> on newlib, which defines _NEWLIB_VERSION

#include "scalar/activation.hpp"
#include "scalar/adam.hpp"
#include "scalar/bias.hpp"
#include "scalar/cross_entropy.hpp"
#include "scalar/elementwise.hpp"
#include "scalar/gemm.hpp"
#include "scalar/norm.hpp"
#include "scalar/softmax.hpp"

// Defined with no value or a non-zero value forces scalar; `(0 - X - 1) == 1` detects "no value".
#if defined(TYPEFORMER_FORCE_SCALAR) && \
    ((0 - TYPEFORMER_FORCE_SCALAR - 1) == 1 || TYPEFORMER_FORCE_SCALAR + 0 != 0)
#define TYPEFORMER_SCALAR_FORCED 1
#else
#define TYPEFORMER_SCALAR_FORCED 0
#endif

#if TYPEFORMER_SCALAR_FORCED
#define TYPEFORMER_SIMD_WANTED 0
#elif !defined(__has_include)
#define TYPEFORMER_SIMD_WANTED 0
#elif !__has_include(<xsimd/xsimd.hpp>)
#define TYPEFORMER_SIMD_WANTED 0
#elif !defined(__STDC_HOSTED__) || !__STDC_HOSTED__
#define TYPEFORMER_SIMD_WANTED 0
#elif defined(_NEWLIB_VERSION) || defined(__NEWLIB__) || \
    (defined(__ARM_EABI__) && !defined(__linux__))
#define TYPEFORMER_SIMD_WANTED 0
#else
#define TYPEFORMER_SIMD_WANTED 1
#endif

#if TYPEFORMER_SIMD_WANTED
// GCC 12's AVX-512 intrinsics initialise "undefined" registers from themselves (GCC PR105593),
// which -Wuninitialized reports wherever xsimd's math inlines them. Silence that for the lines
// of the intrinsic headers, which are first included here.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <xsimd/xsimd.hpp>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#if defined(XSIMD_NO_SUPPORTED_ARCHITECTURE)
#define TYPEFORMER_SIMD 0
#else
#define TYPEFORMER_SIMD 1
#endif
#else
#define TYPEFORMER_SIMD 0
#endif
#undef TYPEFORMER_SIMD_WANTED

#if !TYPEFORMER_SIMD && !TYPEFORMER_SCALAR_FORCED && defined(__ARM_ARCH_PROFILE) && \
    __ARM_ARCH_PROFILE == 'M' && defined(__ARM_FP) && (__ARM_FP & 4) && defined(__ARM_FEATURE_DSP)
#define TYPEFORMER_CORTEXM 1
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 2)
#define TYPEFORMER_HELIUM 1
#else
#define TYPEFORMER_HELIUM 0
#endif
#else
#define TYPEFORMER_CORTEXM 0
#define TYPEFORMER_HELIUM 0
#endif
#undef TYPEFORMER_SCALAR_FORCED

#if TYPEFORMER_SIMD
#include "simd/activation.hpp"
#include "simd/adam.hpp"
#include "simd/bias.hpp"
#include "simd/cross_entropy.hpp"
#include "simd/elementwise.hpp"
#include "simd/gemm.hpp"
#include "simd/norm.hpp"
#include "simd/softmax.hpp"
#endif

#include "cortexm/activation.hpp"  // portable C++: compiled (and tested) on hosts too
#include "cortexm/adam.hpp"
#include "cortexm/cross_entropy.hpp"
#include "cortexm/gelu_backward.hpp"
#include "cortexm/softmax.hpp"
#if TYPEFORMER_CORTEXM
#include "cortexm/gemm.hpp"
#endif
#if TYPEFORMER_HELIUM
#include "helium/gemm.hpp"
#endif

#include <type_traits>

namespace typeformer::kernels {
#if TYPEFORMER_SIMD
namespace backend {
using namespace simd;  // every kernel runs on xsimd at run time ...
// ... but under constant evaluation (a forward pass in a static_assert) the scalar kernels run,
// which are constexpr (xsimd's intrinsics are not). These are the forward pass's kernels.
#define TYPEFORMER_CONSTANT_OR_SIMD(name)            \
    template <class... A>                            \
    constexpr decltype(auto) name(A... a) noexcept { \
        if (std::is_constant_evaluated())            \
            return scalar::name(a...);               \
        else                                         \
            return simd::name(a...);                 \
    }
TYPEFORMER_CONSTANT_OR_SIMD(gemm_nn)
TYPEFORMER_CONSTANT_OR_SIMD(gemm_nt)
TYPEFORMER_CONSTANT_OR_SIMD(gemm_tn)
TYPEFORMER_CONSTANT_OR_SIMD(gemv_n)
TYPEFORMER_CONSTANT_OR_SIMD(gemv_t)
TYPEFORMER_CONSTANT_OR_SIMD(add_bias)
TYPEFORMER_CONSTANT_OR_SIMD(axpy)
TYPEFORMER_CONSTANT_OR_SIMD(scale)
TYPEFORMER_CONSTANT_OR_SIMD(softmax_columns)
TYPEFORMER_CONSTANT_OR_SIMD(softmax_columns_online)
TYPEFORMER_CONSTANT_OR_SIMD(layer_norm)
TYPEFORMER_CONSTANT_OR_SIMD(rms_norm)
TYPEFORMER_CONSTANT_OR_SIMD(relu)
TYPEFORMER_CONSTANT_OR_SIMD(gelu)
TYPEFORMER_CONSTANT_OR_SIMD(gelu_tanh)
#undef TYPEFORMER_CONSTANT_OR_SIMD
}  // namespace backend
#elif TYPEFORMER_CORTEXM
namespace backend {
using namespace scalar;  // what the device layers do not provide: the scalar kernels
// Under constant evaluation the scalar kernels run (the device ones are not constexpr).
#define TYPEFORMER_CONSTANT_OR(layer, name)          \
    template <class... A>                            \
    constexpr decltype(auto) name(A... a) noexcept { \
        if (std::is_constant_evaluated())            \
            return scalar::name(a...);               \
        else                                         \
            return layer::name(a...);                \
    }
#if TYPEFORMER_HELIUM
#define TYPEFORMER_PRODUCTS helium
#else
#define TYPEFORMER_PRODUCTS cortexm
#endif
TYPEFORMER_CONSTANT_OR(TYPEFORMER_PRODUCTS, gemm_nn)
TYPEFORMER_CONSTANT_OR(TYPEFORMER_PRODUCTS, gemm_nt)
TYPEFORMER_CONSTANT_OR(TYPEFORMER_PRODUCTS, gemm_tn)
TYPEFORMER_CONSTANT_OR(TYPEFORMER_PRODUCTS, gemv_n)
TYPEFORMER_CONSTANT_OR(TYPEFORMER_PRODUCTS, gemv_t)
TYPEFORMER_CONSTANT_OR(cortexm, softmax_columns)
TYPEFORMER_CONSTANT_OR(cortexm, softmax_columns_online)
TYPEFORMER_CONSTANT_OR(cortexm, gelu)
TYPEFORMER_CONSTANT_OR(cortexm, gelu_backward)  // the training step's
TYPEFORMER_CONSTANT_OR(cortexm, cross_entropy)
TYPEFORMER_CONSTANT_OR(cortexm, cross_entropy_backward)
TYPEFORMER_CONSTANT_OR(cortexm, adam)
#undef TYPEFORMER_PRODUCTS
#undef TYPEFORMER_CONSTANT_OR
}  // namespace backend
#else
namespace backend = scalar;  // constexpr already
#endif
}  // namespace typeformer::kernels
