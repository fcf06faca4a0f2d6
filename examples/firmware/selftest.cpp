// The board's own checks, each of which must fail the run in its own way:
//   selftest ok     prints and returns 0                       (exit 0)
//   selftest exit7  returns 7                                  (QEMU exits 7: the status is main's)
//   selftest heap   calls malloc                               (the heap trap: exit 4)
//   selftest fault  executes an undefined instruction          (UsageFault printed: exit 3)
//   selftest undeclared  links 8 KiB that its deployment does not name (board::linked_within
//                   prints FAIL: exit 5)
// The mode is chosen at build time (SELFTEST_MODE), as a bare-metal program has no arguments.
#include <cstdlib>

#include "board/board.hpp"

TYPEFORMER_BOARD_STACK(2048);

#if SELFTEST_MODE == 4
#include <typeformer/deploy/deployment.hpp>

namespace dp = typeformer::deploy;
// A deployment of one 1 KiB object in RAM; the program also links a buffer it does not name.
struct one_kib {
    unsigned char bytes[1024];
};
struct keep_in_ram {};
template <class Model>
struct dp::use_buffers<keep_in_ram, Model> {
    using type = dp::type_list<dp::need<dp::buffer::weights, sizeof(Model), true>>;
};
using plan = dp::deployment<board::type, one_kib, keep_in_ram>;
constinit one_kib declared{};
[[gnu::used]] constinit unsigned char undeclared[8192]{};
#endif

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
#if SELFTEST_MODE == 4
    declared.bytes[0] = undeclared[1] = 1;
    return board::linked_within<plan>() ? 0 : 5;
#endif
    return 0;
}
