// The board's own checks, each of which must fail the run in its own way:
//   selftest ok     prints and returns 0                       (exit 0)
//   selftest exit7  returns 7                                  (QEMU exits 7: the status is main's)
//   selftest heap   calls malloc                               (the heap trap: exit 4)
//   selftest fault  executes an undefined instruction          (UsageFault printed: exit 3)
// The mode is chosen at build time (SELFTEST_MODE), as a bare-metal program has no arguments.
#include <cstdlib>

#include "board/board.hpp"

TYPEFORMER_BOARD_STACK(2048);

int main() {
    board::print("selftest", SELFTEST_MODE);
    if constexpr (SELFTEST_MODE == 1)
        return 7;
    if constexpr (SELFTEST_MODE == 2) {
        void* volatile p = std::malloc(16);
        return p != nullptr ? 0 : 1;
    }
    if constexpr (SELFTEST_MODE == 3)
        asm volatile("udf #0");
    return 0;
}
