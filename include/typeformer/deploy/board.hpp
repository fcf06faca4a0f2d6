// Boards as types: a part's memories, each a region with its name, origin, size and access, so
// that a deployment (deploy/deployment.hpp) can be checked against them by the compiler.
//
//   region<Name, Origin, Bytes, Access>   one contiguous memory; Name a tag of namespace memory
//   board<Regions...>                     a part: its regions, the first read-only one holding
//                                         code and constants (flash), the first read-write one
//                                         the program's data (its main RAM)
//   Board::stack_region                   where the part's board support puts the stack
//
// The parts, with the figures of their datasheets (KiB = 1024 bytes):
//
//   part             flash                RAM regions                                   QEMU
//   stm32f405 / 407  1 MiB @ 0x08000000   SRAM 128 KiB @ 0x20000000 (SRAM1 112 + SRAM2  netduinoplus2
//                                         16), CCM 64 KiB @ 0x10000000 (CPU only: no
//                                         DMA); 192 KiB in all
//   nrf52840         1 MiB @ 0x00000000   RAM 256 KiB @ 0x20000000                      -
//   stm32f746        1 MiB @ 0x08000000   RAM 320 KiB @ 0x20000000 (DTCM 64 + SRAM1     -
//                                         240 + SRAM2 16, contiguous)
//   rp2040           2 MiB @ 0x10000000   SRAM 264 KiB @ 0x20000000 (SRAM0–3 striped    -
//                    (the Pico's QSPI     256 + SRAM4 4 + SRAM5 4, contiguous)
//                    flash, executed in
//                    place)
//   stm32h743        2 MiB @ 0x08000000   DTCM 128 KiB @ 0x20000000, AXI SRAM 512 KiB   -
//                                         @ 0x24000000, SRAM1–3 288 KiB @ 0x30000000,
//                                         SRAM4 64 KiB @ 0x38000000, ITCM 64 KiB @ 0x0;
//                                         1056 KiB in all
//   mps2_an386       4 MiB @ 0x00000000   RAM 4 MiB @ 0x20000000 (Cortex-M4; ZBT SSRAM, mps2-an386
//   mps2_an500       the same             the first plays the flash) (Cortex-M7)      mps2-an500
//   mps3_an547       ITCM 512 KiB @ 0x10000000  SRAM 4 MiB @ 0x31000000, DTCM 512 KiB      mps3-an547
//                    (plays the flash)          @ 0x30000000 (the stack) (Cortex-M55,
//                                               Helium; secure aliases)
//   netduinoplus2    stm32f405's regions with the CCM at 0x20020000: QEMU 7.2 models no CCM
//                    and maps 192 KiB of SRAM at 0x20000000, whose upper 64 KiB play it (the
//                    same sizes, so a deployment that fits one fits the other)
//
// A buffer lives in one region: the 192 KiB of an STM32F405 hold a 128 KiB buffer and a 64 KiB
// one, never one of 192 KiB.
//
// Core header: no heap, no exceptions, no fmt.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace typeformer::deploy {

inline constexpr std::size_t KiB = 1024;
inline constexpr std::size_t MiB = 1024 * KiB;

// Whether a running program can write a region: flash is read-only (code, constants, weights).
enum class access { read_only, read_write };

// The regions' names: tags, so a diagnostic names the region (and a linker script its label).
namespace memory {
#define TYPEFORMER_MEMORY(tag, text)               \
    struct tag {                                   \
        static constexpr const char* label = text; \
    }
TYPEFORMER_MEMORY(flash, "FLASH");
TYPEFORMER_MEMORY(ram, "RAM");
TYPEFORMER_MEMORY(sram, "SRAM");
TYPEFORMER_MEMORY(ccm, "CCM");
TYPEFORMER_MEMORY(dtcm, "DTCM");
TYPEFORMER_MEMORY(itcm, "ITCM");
TYPEFORMER_MEMORY(axi_sram, "AXI_SRAM");
TYPEFORMER_MEMORY(sram123, "SRAM123");
TYPEFORMER_MEMORY(sram4, "SRAM4");
#undef TYPEFORMER_MEMORY
}  // namespace memory

template <class Name, std::uintptr_t Origin, std::size_t Bytes, access Access>
struct region {
    using name = Name;
    static constexpr std::uintptr_t origin = Origin;
    static constexpr std::size_t bytes = Bytes;
    static constexpr access mode = Access;
};
template <class Name, std::uintptr_t Origin, std::size_t Bytes>
using flash_region = region<Name, Origin, Bytes, access::read_only>;
template <class Name, std::uintptr_t Origin, std::size_t Bytes>
using ram_region = region<Name, Origin, Bytes, access::read_write>;

template <class... Regions>
struct type_list {
    static constexpr std::size_t size = sizeof...(Regions);
};

// A region's facts as values (for loops over a board's regions).
struct region_info {
    std::uintptr_t origin = 0;
    std::size_t bytes = 0;
    access mode = access::read_write;

    constexpr bool contains(std::uintptr_t address, std::size_t n) const noexcept {
        return address >= origin && n <= bytes && address - origin <= bytes - n;
    }
};

namespace detail {
template <class Name, class... R>
constexpr std::size_t index_of() {
    constexpr bool same[] = {std::is_same_v<Name, typename R::name>..., false};
    for (std::size_t i = 0; i < sizeof...(R); ++i)
        if (same[i])
            return i;
    return sizeof...(R);
}
template <access A, class... R>
constexpr std::size_t first_with() {
    constexpr access modes[] = {R::mode..., A};
    for (std::size_t i = 0; i < sizeof...(R); ++i)
        if (modes[i] == A)
            return i;
    return sizeof...(R);
}
template <std::size_t I, class... R>
struct nth;
template <class R0, class... R>
struct nth<0, R0, R...> {
    using type = R0;
};
template <std::size_t I, class R0, class... R>
struct nth<I, R0, R...> : nth<I - 1, R...> {};
}  // namespace detail

template <class... Regions>
struct board {
    static_assert(sizeof...(Regions) > 0, "board: a part has at least one region");
    using regions = type_list<Regions...>;
    static constexpr std::size_t region_count = sizeof...(Regions);
    static constexpr std::array<region_info, sizeof...(Regions)> info{
        {{Regions::origin, Regions::bytes, Regions::mode}...}};
    static constexpr std::array<const char*, sizeof...(Regions)> labels{{Regions::name::label...}};

    // The index of the region named Name (region_count when there is none).
    template <class Name>
    static constexpr std::size_t index_of = detail::index_of<Name, Regions...>();
    template <class Name>
    static constexpr bool has = index_of<Name> < region_count;
    template <std::size_t I>
    using region_at = typename detail::nth<I, Regions...>::type;

    // Code and constants (and weights that are only read): the first read-only region.
    static constexpr std::size_t flash_index = detail::first_with<access::read_only, Regions...>();
    // The program's data: the first read-write region.
    static constexpr std::size_t ram_index = detail::first_with<access::read_write, Regions...>();
    static_assert(ram_index < sizeof...(Regions), "board: a part has a read-write region");
};

// ---- the parts ----

struct stm32f405 : board<flash_region<memory::flash, 0x0800'0000, 1 * MiB>,
                         ram_region<memory::sram, 0x2000'0000, 128 * KiB>,
                         ram_region<memory::ccm, 0x1000'0000, 64 * KiB>> {
    static constexpr const char* part = "STM32F405";
    using stack_region = memory::ccm;  // CPU-only memory: the stack, the step buffers
};
struct stm32f407 : stm32f405 {  // the F405's memory (and Ethernet, a camera interface)
    static constexpr const char* part = "STM32F407";
};
struct nrf52840 : board<flash_region<memory::flash, 0x0000'0000, 1 * MiB>,
                        ram_region<memory::ram, 0x2000'0000, 256 * KiB>> {
    static constexpr const char* part = "nRF52840";
    using stack_region = memory::ram;
};
struct stm32f746 : board<flash_region<memory::flash, 0x0800'0000, 1 * MiB>,
                         ram_region<memory::ram, 0x2000'0000, 320 * KiB>> {
    static constexpr const char* part = "STM32F746";
    using stack_region = memory::ram;
};
struct rp2040 : board<flash_region<memory::flash, 0x1000'0000, 2 * MiB>,
                      ram_region<memory::sram, 0x2000'0000, 264 * KiB>> {
    static constexpr const char* part = "RP2040";
    using stack_region = memory::sram;
};
struct stm32h743 : board<flash_region<memory::flash, 0x0800'0000, 2 * MiB>,
                         ram_region<memory::axi_sram, 0x2400'0000, 512 * KiB>,
                         ram_region<memory::dtcm, 0x2000'0000, 128 * KiB>,
                         ram_region<memory::sram123, 0x3000'0000, 288 * KiB>,
                         ram_region<memory::sram4, 0x3800'0000, 64 * KiB>,
                         ram_region<memory::itcm, 0x0000'0000, 64 * KiB>> {
    static constexpr const char* part = "STM32H743";
    using stack_region = memory::dtcm;
};

// QEMU's boards (the presets mcu-m4, mcu-m7, mcu-stm32f405, mcu-m55).
struct mps2_an386 : board<flash_region<memory::flash, 0x0000'0000, 4 * MiB>,
                          ram_region<memory::ram, 0x2000'0000, 4 * MiB>> {
    static constexpr const char* part = "MPS2 AN386 (Cortex-M4)";
    using stack_region = memory::ram;
};
struct mps2_an500 : mps2_an386 {  // the same memory map
    static constexpr const char* part = "MPS2 AN500 (Cortex-M7)";
};
// QEMU's MPS3 AN547 (Cortex-M55 with Helium, the preset mcu-m55), run in its secure state: the
// 512 KiB ITCM (secure alias 0x10000000) plays the flash, the SSE-300's 4 MiB of internal SRAM
// (0x31000000) the RAM, the 512 KiB DTCM (0x30000000) holds the stack.
struct mps3_an547 : board<flash_region<memory::itcm, 0x1000'0000, 512 * KiB>,
                          ram_region<memory::sram, 0x3100'0000, 4 * MiB>,
                          ram_region<memory::dtcm, 0x3000'0000, 512 * KiB>> {
    static constexpr const char* part = "MPS3 AN547 (Cortex-M55)";
    using stack_region = memory::dtcm;
};
struct netduinoplus2 : board<flash_region<memory::flash, 0x0800'0000, 1 * MiB>,
                             ram_region<memory::sram, 0x2000'0000, 128 * KiB>,
                             ram_region<memory::ccm, 0x2002'0000, 64 * KiB>> {
    static constexpr const char* part = "STM32F405 as QEMU's netduinoplus2 models it";
    using stack_region = memory::ccm;
};

}  // namespace typeformer::deploy
