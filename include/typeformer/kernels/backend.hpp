// Compile-time choice of the raw kernel layer.
//
//   typeformer::kernels::scalar   plain loops, always available (microcontrollers)
//   typeformer::kernels::simd     xsimd 8.1 batches, only when xsimd is usable
//   typeformer::kernels::backend  alias of the one chosen here; TYPEFORMER_SIMD is 0 or 1
//
// SIMD iff all of:
//   - TYPEFORMER_FORCE_SCALAR is not defined (or defined as 0),
//   - <xsimd/xsimd.hpp> is on the include path,
//   - a hosted implementation that is not newlib / bare-metal ARM EABI (xsimd 8.1's aligned
//     allocator calls posix_memalign, which newlib lacks, so the header does not even compile),
//   - xsimd finds an instruction set for the target (XSIMD_NO_SUPPORTED_ARCHITECTURE undefined).
// The scalar layer is compiled in every case, so tests can compare both paths.
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
TYPEFORMER_CONSTANT_OR_SIMD(layer_norm)
TYPEFORMER_CONSTANT_OR_SIMD(rms_norm)
TYPEFORMER_CONSTANT_OR_SIMD(relu)
TYPEFORMER_CONSTANT_OR_SIMD(gelu)
TYPEFORMER_CONSTANT_OR_SIMD(gelu_tanh)
#undef TYPEFORMER_CONSTANT_OR_SIMD
}  // namespace backend
#else
namespace backend = scalar;  // constexpr already
#endif
}  // namespace typeformer::kernels
