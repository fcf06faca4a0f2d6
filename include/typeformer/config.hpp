// Build-wide switches and the contract check used by every core header.
// No iostream, no exceptions: this must compile for a microcontroller.
#pragma once

#include <cstdio>
#include <cstdlib>

// TYPEFORMER_CHECK guards run-time preconditions that the type system cannot
// see (a runtime extent against a capacity, two runtime extents that must
// agree). They stay on in release builds because they cost a compare; define
// TYPEFORMER_NO_CHECKS to strip them.
namespace typeformer::detail {
[[noreturn]] inline void contract_violation(const char* what, const char* file, int line) noexcept {
    std::fprintf(stderr, "typeformer: %s:%d: precondition failed: %s\n", file, line, what);
    std::abort();
}
}  // namespace typeformer::detail

#if defined(TYPEFORMER_NO_CHECKS)
#define TYPEFORMER_CHECK(cond, what) ((void)0)
#else
#define TYPEFORMER_CHECK(cond, what) \
    ((cond) ? (void)0 : ::typeformer::detail::contract_violation(what, __FILE__, __LINE__))
#endif

#if defined(__EXCEPTIONS) || defined(__cpp_exceptions)
#define TYPEFORMER_HAS_EXCEPTIONS 1
#else
#define TYPEFORMER_HAS_EXCEPTIONS 0
#endif
