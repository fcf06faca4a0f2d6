// Which kernel layer the build selected: xsimd's instruction set on SIMD builds (NEON on aarch64,
// checked at compile time), none when TYPEFORMER_FORCE_SCALAR is set.
#include <gtest/gtest.h>

#include <cstdio>
#include <type_traits>

#include <typeformer/kernels.hpp>

#if defined(TYPEFORMER_FORCE_SCALAR) && TYPEFORMER_FORCE_SCALAR
static_assert(TYPEFORMER_SIMD == 0, "TYPEFORMER_FORCE_SCALAR must select the scalar kernels");
#elif defined(__aarch64__)
// Every aarch64 core has Advanced SIMD: xsimd 8.1 must find it (the aarch64 preset tests it).
static_assert(TYPEFORMER_SIMD == 1, "aarch64: xsimd found no instruction set");
static_assert(std::is_same_v<xsimd::default_arch, xsimd::neon64>,
              "aarch64: xsimd's default architecture is not neon64");
#endif

TEST(Backend, NamesItsInstructionSet) {
#if TYPEFORMER_SIMD
    const char* arch = xsimd::default_arch::name();
    std::printf("typeformer kernels: xsimd %s\n", arch);
    EXPECT_STRNE(arch, "");
#else
    std::printf("typeformer kernels: scalar\n");
    SUCCEED();
#endif
}
