// The little a firmware program needs from its board, the same on the device and on the host,
// so that one source builds both ways and the two outputs can be compared line by line.
//
//   board::write(s, n)          text to the console (device: semihosting; host: stdout)
//   board::instructions()       instructions retired so far (device: QEMU -icount shift=0 with
//                               SysTick; host: 0, the count is a device measurement)
//   board::print(...)           a line of words, unsigned integers and floats; floats are printed
//                               as their IEEE-754 bits in hex, so nothing is lost and no printf
//                               (which would drag in the heap and soft-float double) is needed
//   board::type                 the board as a type (typeformer/deploy/board.hpp), chosen by the
//                               build (TYPEFORMER_BOARD_TYPE): what the programs' deployments are
//                               checked against, on the device and on the host alike
//   TYPEFORMER_BOARD_STACK(n)   the program's stack, n bytes in the board's stack region (its
//                               deployment's declared stack); the device fails a run whose stack
//                               outgrows it. TYPEFORMER_BOARD_STACK_IN_MAIN_RAM(n): in the main
//                               RAM instead (a deployment that leaves the F405's CCM empty)
//   TYPEFORMER_BOARD_RAM2       an object in the second RAM region (the STM32F405's CCM)
//   board::print_deployment<Plan>()   what Plan puts in each region (info lines)
//   board::print_params(label, x, stride)  every stride-th scalar of a model (or of a trainable
//                               part) in walk order: `label index value` lines to compare
//   board::placed<Plan, Buffer>(object), board::stack_placed<Plan>()
//                               the object (the stack) is where the deployment Plan puts it: in
//                               its region's address range, and the stack of Plan's size (device;
//                               true on the host). A misplaced one prints FAIL and is false.
//   board::linked_within<Plan>()  the linked image's RAM in each region (.data, .bss, .ram2 and
//                               the stack, from the linker script's symbols) is at most what Plan
//                               says plus the board support's own bytes (board_own_ram_bytes):
//                               the type's figure is the map's, and no buffer is left out of the
//                               deployment (device; true on the host). Prints `info linked` lines.
//
// A program is `int main()`; its status is the run's exit status (QEMU's, on the device).
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <type_traits>

#include <typeformer/deploy/board.hpp>

namespace typeformer::deploy::buffer {
struct stack;
}  // namespace typeformer::deploy::buffer

namespace board {

using type = typeformer::deploy::TYPEFORMER_BOARD_TYPE;

void write(const char* s, std::size_t n);
std::uint64_t instructions();
// The bytes of the image's RAM sections (.data, .bss, .ram2, the stack) that lie in
// [origin, origin + n) (device; 0 on the host).
std::size_t linked_ram_bytes(std::uintptr_t origin, std::size_t n);
// RAM that no deployment names: newlib's reentrancy data (100 B), the board's tick counter, and
// the padding before a 64-byte-aligned model (selftest_ok links 4 B of .bss; the programs up to
// 192 B besides their deployment's buffers).
inline constexpr std::size_t board_own_ram_bytes = 512;
// The stack's bytes (the device's linker-placed stack; empty on the host).
std::span<const std::byte> stack_area();

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

// The object at p, n bytes, is in the region where Plan puts Buffer.
template <class Plan, class Buffer>
bool placed_bytes(const void* p, std::size_t n) {
    using B = typename Plan::board_type;
    constexpr std::size_t r = Plan::template region_of<Buffer>;
    static_assert(r < B::region_count, "board::placed: the deployment has no such buffer");
#if defined(__arm__)
    const auto address = reinterpret_cast<std::uintptr_t>(p);
    if (B::info[r].contains(address, n))
        return true;
    print("FAIL placement: an object of", n, "bytes at", static_cast<std::uint64_t>(address),
          "is not in", B::labels[r]);
    return false;
#else
    (void)p, (void)n;
    return true;
#endif
}

template <class Plan, class Buffer, class T>
bool placed(const T& object) {
    return placed_bytes<Plan, Buffer>(&object, sizeof object);
}

// One info line per region: what the deployment Plan puts in it, of its size.
template <class Plan>
void print_deployment() {
    using B = typename Plan::board_type;
    for (std::size_t r = 0; r < B::region_count; ++r)
        print("info deployment", B::labels[r], "bytes", Plan::used(r), "of", B::info[r].bytes);
}

// Scalars 0, stride, 2·stride, … of x's parameters, counted across its leaves in walk order
// (typeformer's for_each_param, found by argument-dependent lookup: this header does not include
// the library, which the board support cortex_m.cpp does not use).
template <class Params>
void print_params(const char* label, const Params& x, std::size_t stride) {
    std::size_t index = 0;
    for_each_param(x, [&](const auto&, const auto& leaf) {
        for (std::size_t i = 0; i < sizeof leaf.elems / sizeof leaf.elems[0]; ++i, ++index)
            if (index % stride == 0)
                print(label, index, leaf.data()[i]);
    });
}

template <class Plan>
bool linked_within() {
    using B = typename Plan::board_type;
    bool ok = true;
    for (std::size_t r = 0; r < B::region_count; ++r) {
        if (B::info[r].mode != typeformer::deploy::access::read_write)
            continue;
#if defined(__arm__)
        const std::size_t linked = linked_ram_bytes(B::info[r].origin, B::info[r].bytes);
        print("info linked", B::labels[r], "bytes", linked);
        if (linked > Plan::used(r) + board_own_ram_bytes) {
            print("FAIL deployment: the image links", linked, "bytes in", B::labels[r],
                  "and the deployment names", Plan::used(r));
            ok = false;
        }
#endif
    }
    return ok;
}

template <class Plan>
bool stack_placed() {
    using stack = typeformer::deploy::buffer::stack;
    const auto s = stack_area();
#if defined(__arm__)
    if (s.size() != Plan::template bytes_of<stack>) {
        print("FAIL placement: the stack has", s.size(), "bytes, the deployment declares",
              Plan::template bytes_of<stack>);
        return false;
    }
#endif
    return placed_bytes<Plan, stack>(s.data(), s.size());
}

}  // namespace board

#if defined(__arm__)
#define TYPEFORMER_BOARD_STACK_IN(name, bytes)     \
    extern "C" unsigned char board_stack[(bytes)]; \
    [[gnu::section(name), gnu::used]] alignas(8) unsigned char board_stack[(bytes)]
#define TYPEFORMER_BOARD_RAM2 [[gnu::section(".ram2")]]
#else
#define TYPEFORMER_BOARD_STACK_IN(name, bytes) static_assert((bytes) > 0, "a stack of some bytes")
#define TYPEFORMER_BOARD_RAM2
#endif
#define TYPEFORMER_BOARD_STACK(bytes) TYPEFORMER_BOARD_STACK_IN(".stack", bytes)
#define TYPEFORMER_BOARD_STACK_IN_MAIN_RAM(bytes) TYPEFORMER_BOARD_STACK_IN(".stack_main", bytes)
