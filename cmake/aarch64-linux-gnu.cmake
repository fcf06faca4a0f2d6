# Cross build for 64-bit ARM Linux (aarch64), run under QEMU's user-mode emulator.
#
#   cmake --workflow --preset aarch64          NEON (xsimd's neon64 path)
#   cmake --workflow --preset aarch64-scalar   the same with TYPEFORMER_FORCE_SCALAR=ON
#
# Debian packages: g++-aarch64-linux-gnu (compiler, libstdc++ and glibc for aarch64 under
# /usr/aarch64-linux-gnu) and qemu-user (qemu-aarch64). ctest runs every test binary through
# CMAKE_CROSSCOMPILING_EMULATOR; `-L` points QEMU at the aarch64 dynamic loader and libraries, so
# no binfmt_misc registration is needed. A test that runs the PyTorch oracle starts
# /usr/bin/python3 with system(): QEMU passes the execve to the host kernel, so the oracle is the
# host's python (x86-64), reading and writing the same exchange files.
#
# The header-only dependencies (Boost.Hana, xsimd, fmt in header-only mode) are the host's
# /usr/include; GoogleTest is compiled for aarch64 from Debian's sources (/usr/src/googletest,
# package googletest) by tests/CMakeLists.txt, because libgtest-dev ships x86-64 archives.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

set(TYPEFORMER_AARCH64_SYSROOT "/usr/aarch64-linux-gnu" CACHE PATH
    "The aarch64 libraries' root (the dynamic loader QEMU runs the tests with)")
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L "${TYPEFORMER_AARCH64_SYSROOT}")

# Libraries only from the aarch64 root; headers and CMake package files (header-only
# dependencies) from the host too.
set(CMAKE_FIND_ROOT_PATH "${TYPEFORMER_AARCH64_SYSROOT}")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
# The host's package files live under its multiarch folder, which a cross build does not search.
list(APPEND CMAKE_PREFIX_PATH "/usr/lib/x86_64-linux-gnu/cmake")
