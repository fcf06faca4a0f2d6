// The little a firmware program needs from its board, the same on the device and on the host,
// so that one source builds both ways and the two outputs can be compared line by line.
//
//   board::write(s, n)          text to the console (device: semihosting; host: stdout)
//   board::instructions()       instructions retired so far (device: QEMU -icount shift=0 with
//                               SysTick; host: 0, the count is a device measurement)
//   board::print(...)           a line of words, unsigned integers and floats; floats are printed
//                               as their IEEE-754 bits in hex, so nothing is lost and no printf
//                               (which would drag in the heap and soft-float double) is needed
//
// A program is `int main()`; its status is the run's exit status (QEMU's, on the device).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace board {

void write(const char* s, std::size_t n);
std::uint64_t instructions();

namespace detail {

inline void put(const char* s) {
    write(s, std::strlen(s));
}
inline void put(std::uint64_t v) {
    char buf[24];
    char* p = buf + sizeof buf;
    do {
        *--p = static_cast<char>('0' + v % 10);
        v /= 10;
    } while (v != 0);
    write(p, static_cast<std::size_t>(buf + sizeof buf - p));
}
inline void put(float f) {  // 0x3f800000 for 1.0f
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(f);
    char buf[10] = {'0', 'x'};
    for (int i = 0; i < 8; ++i)
        buf[2 + i] = "0123456789abcdef"[(bits >> (28 - 4 * i)) & 0xF];
    write(buf, sizeof buf);
}
template <class T>
void put_one(const T& v) {
    if constexpr (std::is_floating_point_v<T>)
        put(static_cast<float>(v));
    else if constexpr (std::is_integral_v<T>)
        put(static_cast<std::uint64_t>(v));
    else
        put(static_cast<const char*>(v));
}

}  // namespace detail

// print("loss", step, value): the words separated by one space, then a newline.
template <class... Args>
void print(const Args&... args) {
    bool first = true;
    ((first ? void(first = false) : write(" ", 1), detail::put_one(args)), ...);
    write("\n", 1);
}

}  // namespace board

namespace board {

// The MPS2 boards' memories as mps2.ld lays them out: what a program's static_asserts compare
// its footprint with.
inline constexpr std::size_t flash_bytes = std::size_t{4} << 20;
inline constexpr std::size_t ram_bytes = std::size_t{4} << 20;
inline constexpr std::size_t stack_bytes = std::size_t{64} << 10;  // STACK_SIZE in mps2.ld

}  // namespace board
