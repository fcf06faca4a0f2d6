// Regions of a firmware run that measure.py measures: begin() and end() put a `dbg #1` and a
// `dbg #2` (Armv7-M's debug hint, a no-op on the core) around the code, which the insn_mix QEMU
// plugin takes as the region's bounds; end() names the region on the console with its tokens and
// multiply-adds, so measure.py can give instructions per token and per multiply-add.
//
//   profile::begin();
//   tf::try_append(theta, cache, y);
//   profile::end("tiny_float", 1, macs);
//
// On the host (the comparison build) the hints are left out and the names printed all the same
// ("info" lines: run_qemu.py does not compare them).
#pragma once

#include <cstdint>

#include "board/board.hpp"

namespace profile {

namespace detail {
inline std::uint64_t started = 0;
}

inline void begin() {
    detail::started = board::instructions();
#if defined(__arm__)
    asm volatile("dbg #1" ::: "memory");
#endif
}

// Also prints QEMU's own count (board::instructions(), to 40 instructions), which measure.py
// checks the plugin's against.
inline void end(const char* label, std::uint64_t tokens, std::uint64_t macs) {
#if defined(__arm__)
    asm volatile("dbg #2" ::: "memory");
#endif
    const std::uint64_t n = board::instructions() - detail::started;
    board::print("info region", label, "tokens", tokens, "macs", macs, "icount", n);
}

// An empty region: what the SysTick reads around a region cost (measure.py takes it off QEMU's
// count before comparing the plugin's with it). Call once, first.
inline void calibrate() {
    begin();
    end("calibrate", 0, 0);
}

}  // namespace profile
