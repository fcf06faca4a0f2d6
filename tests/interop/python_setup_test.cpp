// The Python side of test_interop in one process (interop.hpp's python_setup): every test file's
// reference files, conversions and PyTorch runs, made once for the binary. ctest runs this test
// first (FIXTURES_SETUP; tests/interop/CMakeLists.txt) and the others read what it made.
#include <gtest/gtest.h>

#include "interop.hpp"

namespace {

TEST(PythonOracle, RunsOnceForTheBinary) {
    interop::run_python_setup();
}

}  // namespace
