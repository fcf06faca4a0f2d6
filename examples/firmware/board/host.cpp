// The board on the host: the same firmware program as an ordinary executable, whose output is
// what the device's must match.
#include <cstdio>

#include "board.hpp"

namespace board {

void write(const char* s, std::size_t n) {
    std::fwrite(s, 1, n, stdout);
}
std::uint64_t instructions() {
    return 0;
}
std::size_t linked_ram_bytes(std::uintptr_t, std::size_t) {
    return 0;
}
std::span<const std::byte> stack_area() {
    return {};
}

}  // namespace board
