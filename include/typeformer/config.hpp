// Build-wide switches and the contract check used by every core header.
// No iostream, no exceptions: this must compile for a microcontroller.
#pragma once

#include <cstdlib>  // also brings in <newlib.h> on newlib, which defines _NEWLIB_VERSION

// TYPEFORMER_CHECK guards run-time preconditions that the type system cannot
// see (a runtime extent against a capacity, two runtime extents that must
// agree). They stay on in release builds because they cost a compare; define
// TYPEFORMER_NO_CHECKS to strip them.
//
// What a failed check does:
//   - TYPEFORMER_CONTRACT_HANDLER defined: it is called as handler(what, file, line) and must
//     not return (a firmware's fault handler, a test's hook);
//   - a hosted build that is not newlib: the message goes to stderr, then std::abort();
//   - a microcontroller (freestanding, or newlib): __builtin_trap(), because newlib's stdio
//     would pull malloc and sbrk into an image that otherwise needs no heap.
#if !defined(TYPEFORMER_CONTRACT_HANDLER) && defined(__STDC_HOSTED__) && __STDC_HOSTED__ && \
    !defined(_NEWLIB_VERSION) && !(defined(__ARM_EABI__) && !defined(__linux__))
#define TYPEFORMER_CONTRACT_USES_STDIO 1
#include <cstdio>
#else
#define TYPEFORMER_CONTRACT_USES_STDIO 0
#endif

namespace typeformer::detail {
[[noreturn]] inline void contract_violation([[maybe_unused]] const char* what,
                                            [[maybe_unused]] const char* file,
                                            [[maybe_unused]] int line) noexcept {
#if defined(TYPEFORMER_CONTRACT_HANDLER)
    TYPEFORMER_CONTRACT_HANDLER(what, file, line);
    __builtin_unreachable();
#elif TYPEFORMER_CONTRACT_USES_STDIO
    std::fprintf(stderr, "typeformer: %s:%d: precondition failed: %s\n", file, line, what);
    std::abort();
#else
    __builtin_trap();
#endif
}
}  // namespace typeformer::detail

#if defined(TYPEFORMER_NO_CHECKS)
#define TYPEFORMER_CHECK(cond, what) ((void)0)
#else
#define TYPEFORMER_CHECK(cond, what) \
    ((cond) ? (void)0 : ::typeformer::detail::contract_violation(what, __FILE__, __LINE__))
#endif

// Element access M(i, j), v[i] is checked against the run-time extents in debug builds only
// (as Eigen's operator() asserts): a compare per access is too much for release hot loops.
#if !defined(NDEBUG) && !defined(TYPEFORMER_NO_CHECKS)
#define TYPEFORMER_DEBUG_CHECK(cond, what) TYPEFORMER_CHECK(cond, what)
#else
#define TYPEFORMER_DEBUG_CHECK(cond, what) ((void)0)
#endif

#if defined(__EXCEPTIONS) || defined(__cpp_exceptions)
#define TYPEFORMER_HAS_EXCEPTIONS 1
#else
#define TYPEFORMER_HAS_EXCEPTIONS 0
#endif

// TYPEFORMER_DEVICE: 1 in a bare-metal build (no OS: arm-none-eabi, newlib, freestanding), 0 on a
// host; define it to 0 or 1 to choose. A device build computes the scalars a step needs beside
// its tensors — the sampler's sums and draw, Adam's options and bias corrections, the angles of
// sinusoidal positions — in float, so no soft-float double is linked into a firmware (a
// Cortex-M4F has no double unit); a host computes them in double, as PyTorch does in Python.
// Every translation unit of one program must see the same value (adam_options' fields follow it).
#if !defined(TYPEFORMER_DEVICE)
#if !defined(__STDC_HOSTED__) || !__STDC_HOSTED__ ||      \
    (defined(_NEWLIB_VERSION) && !defined(__CYGWIN__)) || \
    (defined(__ARM_EABI__) && !defined(__linux__))
#define TYPEFORMER_DEVICE 1
#else
#define TYPEFORMER_DEVICE 0
#endif
#endif

namespace typeformer {
// The precision of those scalars: double on a host, float on a device.
#if TYPEFORMER_DEVICE
using step_real = float;
#else
using step_real = double;
#endif
}  // namespace typeformer
