// Heap allocations made by the whole process so far (bench/alloc_count.cpp interposes malloc).
#pragma once

#include <cstdint>

namespace typeformer_bench {
std::uint64_t allocations() noexcept;
}  // namespace typeformer_bench
