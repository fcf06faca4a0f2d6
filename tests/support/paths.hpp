// A build path or tool macro (TYPEFORMER_PYTHON, TYPEFORMER_TESTS_DIR, …) as a std::string to
// build commands and file names from. Out of line on purpose: inlined, GCC 12 at -O2 sees the
// literals' lengths through `std::string(MACRO) + " " + …` and, for some lengths, reports a
// false -Warray-bounds in the inlined memcpy (a GCC 12 bug), which -Werror turns into a failed
// build: it did for a checkout at /work/main and not at /tmp/ci-clone.
#pragma once

#include <string>

namespace typeformer::testing {

[[gnu::noinline]] inline std::string path_string(const char* macro) {
    return std::string(macro);
}

}  // namespace typeformer::testing
