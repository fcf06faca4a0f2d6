// Minimal board support for a Cortex-M4/M7 under QEMU: the MPS2 boards (mps2-an386: Cortex-M4F,
// mps2-an500: Cortex-M7) and the STM32F405 (netduinoplus2, Cortex-M4F): the vector table, the
// reset handler, fault handlers, the console and exit through semihosting, a stack high-water
// mark, an instruction counter, and a heap that traps. Nothing here is board-specific but the
// core clock (TYPEFORMER_BOARD_CPU_HZ); the memory map is the linker script's (sections.ld and
// the memory.ld written from the board's type).
//
// Semihosting is three calls made here directly (BKPT 0xAB): SYS_WRITE0 for the console and
// SYS_EXIT_EXTENDED for the exit status. newlib's rdimon was the first choice, but its exit in
// Debian 12's newlib probes for the extended exit through a ":semihosting-features" file and,
// under QEMU 7.2, falls back to the plain SYS_EXIT, whose status QEMU reports as 0 or 1 only.
//
// Reset: enable the FPU (CPACR) before any float instruction can run, point VTOR at the vector
// table (the STM32F405 boots from its flash aliased at 0), copy .data from flash, zero .bss and
// .ram2, paint the stack, run the static constructors, then exit(main()). Exit prints the stack's
// high-water mark and leaves through semihosting, so QEMU's exit status is main's; a stack used
// to its last word (the program's declared stack was too small: TYPEFORMER_BOARD_STACK) exits 6.
// A fault prints its name and registers and exits with 3; any use of the heap exits with 4.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>

#include "board.hpp"

extern "C" {
void __libc_init_array(void);
// The linker script's symbols.
extern std::uint32_t __data_start[], __data_end[], __data_load[], __bss_start[], __bss_end[],
    __ram2_start[], __ram2_end[], __stack_limit[], __stack_top[];
int main();
using handler = void (*)();
extern const handler vector_table[16];  // below: the initial SP, then the system handlers
// __libc_init_array calls these; crti/crtn are not linked (-nostartfiles).
void _init(void) {}
void _fini(void) {}
}

namespace {

// ARM semihosting (IHI 0056): r0 = operation, r1 = argument; BKPT 0xAB on M-profile.
std::uint32_t semihost(std::uint32_t op, const void* arg) {
    register std::uint32_t r0 asm("r0") = op;
    register const void* r1 asm("r1") = arg;
    asm volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}
constexpr std::uint32_t SYS_WRITE0 = 0x04, SYS_EXIT_EXTENDED = 0x20,
                        ADP_Stopped_ApplicationExit = 0x20026;

[[noreturn]] void semihosting_exit(int status) {
    const std::uint32_t block[2] = {ADP_Stopped_ApplicationExit,
                                    static_cast<std::uint32_t>(status)};
    semihost(SYS_EXIT_EXTENDED, block);
    for (;;)
        asm volatile("wfi");
}

constexpr std::uint32_t paint = 0xC0FFEE11u;

volatile std::uint32_t& reg(std::uintptr_t address) {
    return *reinterpret_cast<volatile std::uint32_t*>(address);
}
constexpr std::uintptr_t CPACR = 0xE000ED88, VTOR = 0xE000ED08, SHCSR = 0xE000ED24,
                         CFSR = 0xE000ED28, HFSR = 0xE000ED2C, SYST_CSR = 0xE000E010,
                         SYST_RVR = 0xE000E014, SYST_CVR = 0xE000E018;

volatile std::uint32_t systick_wraps = 0;

std::size_t stack_high_water() {  // bytes of the stack ever written since reset
    const std::uint32_t* p = __stack_limit;
    while (p < __stack_top && *p == paint)
        ++p;
    return static_cast<std::size_t>(reinterpret_cast<const char*>(__stack_top) -
                                    reinterpret_cast<const char*>(p));
}

[[noreturn]] void finish(int status) {
    const std::size_t used = stack_high_water();
    board::print("info stack_high_water_bytes", used);
    if (__stack_limit[0] != paint) {  // its last word written: it may have run past its end
        board::print("FAIL stack: the program used all", used,
                     "bytes of its stack (TYPEFORMER_BOARD_STACK)");
        semihosting_exit(6);
    }
    board::print("info exit", static_cast<unsigned>(status));
    semihosting_exit(status);  // QEMU exits with `status`
}

[[noreturn]] void fail(const char* what, int status) {
    board::print("FAIL", what);
    semihosting_exit(status);
}

}  // namespace

extern "C" [[noreturn]] void reset_c() {
    std::uint32_t* src = __data_load;
    for (std::uint32_t* dst = __data_start; dst < __data_end;)
        *dst++ = *src++;
    for (std::uint32_t* dst = __bss_start; dst < __bss_end;)
        *dst++ = 0;
    for (std::uint32_t* dst = __ram2_start; dst < __ram2_end;)
        *dst++ = 0;
    // Paint the stack below this frame (a margin of 256 bytes keeps clear of it).
    std::uint32_t* sp;
    asm volatile("mov %0, sp" : "=r"(sp));
    for (std::uint32_t* p = __stack_limit; p < sp - 64; ++p)
        *p = paint;
    reg(VTOR) = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(vector_table));
    reg(SHCSR) |= (1u << 16) | (1u << 17) | (1u << 18);  // MemManage, BusFault, UsageFault on
    // SysTick counts the core clock, which under QEMU's -icount shift=0 advances one tick per
    // retired instruction scaled by the clock: see board::instructions().
    reg(SYST_RVR) = 0xFFFFFF;
    reg(SYST_CVR) = 0;
    reg(SYST_CSR) = 0x7;          // enable, interrupt on wrap, processor clock
    while (reg(SYST_CVR) == 0) {  // the first load of RELOAD is no wrap: wait for it
    }
    __libc_init_array();
    finish(main());
}

// Reset: CPACR gives CP10/CP11 (the FPU) full access before C++ code (which may use s-registers
// for anything) runs; the handler is naked so that no compiler-made prologue comes first.
extern "C" [[gnu::naked, noreturn]] void Reset_Handler() {
    asm volatile(
        "ldr r0, =0xE000ED88\n"
        "ldr r1, [r0]\n"
        "orr r1, r1, #(0xF << 20)\n"
        "str r1, [r0]\n"
        "dsb\n"
        "isb\n"
        "b reset_c\n");
}

// A fault: the stacked frame's PC and the fault status registers, then exit 3.
extern "C" [[noreturn, gnu::used]] void fault_c(const std::uint32_t* frame, std::uint32_t ipsr) {
    static const char* const names[] = {"?",         "?",        "NMI",       "HardFault",
                                        "MemManage", "BusFault", "UsageFault"};
    board::print("FAULT", names[ipsr < 7 ? ipsr : 0], "pc", frame[6], "lr", frame[5], "cfsr",
                 reg(CFSR), "hfsr", reg(HFSR));
    semihosting_exit(3);
}

extern "C" [[gnu::naked]] void Fault_Handler() {
    asm volatile(
        "tst lr, #4\n"
        "ite eq\n"
        "mrseq r0, msp\n"
        "mrsne r0, psp\n"
        "mrs r1, ipsr\n"
        "b fault_c\n");
}

extern "C" void SysTick_Handler() {
    systick_wraps = systick_wraps + 1;
}
extern "C" [[noreturn]] void Default_Handler() {
    fail("unexpected interrupt", 5);
}

// Vector table: initial SP, then the system handlers (ARMv7-M B1.5.2). No device interrupt is
// enabled, so the table stops after SysTick.
extern "C" [[gnu::section(".isr_vector"), gnu::used]] const handler vector_table[16] = {
    reinterpret_cast<handler>(__stack_top),
    Reset_Handler,
    Fault_Handler,  // NMI
    Fault_Handler,  // HardFault
    Fault_Handler,  // MemManage
    Fault_Handler,  // BusFault
    Fault_Handler,  // UsageFault
    nullptr,
    nullptr,
    nullptr,
    nullptr,
    Default_Handler,  // SVCall
    Default_Handler,  // DebugMonitor
    nullptr,
    Default_Handler,  // PendSV
    SysTick_Handler,
};

namespace board {

void write(const char* s, std::size_t n) {  // SYS_WRITE0 takes a NUL-terminated string
    char chunk[128];
    while (n > 0) {
        const std::size_t k = n < sizeof chunk - 1 ? n : sizeof chunk - 1;
        std::memcpy(chunk, s, k);
        chunk[k] = '\0';
        semihost(SYS_WRITE0, chunk);
        s += k, n -= k;
    }
}

// Under -icount shift=0 every instruction advances QEMU's virtual clock by 1 ns, and SysTick
// counts the core clock (TYPEFORMER_BOARD_CPU_HZ in virtual time: 25 MHz on QEMU's MPS2 boards,
// 168 MHz on its netduinoplus2), so instructions = ticks · 10⁹ / f. The resolution is one tick
// (40 instructions on the MPS2 boards, 6 on the STM32F405).
std::uint64_t instructions() {
    std::uint32_t wraps, cvr;
    do {
        wraps = systick_wraps;
        cvr = reg(SYST_CVR);
    } while (wraps != systick_wraps);
    const std::uint64_t ticks = (std::uint64_t{wraps} << 24) + (0xFFFFFFu - cvr);
    return ticks * 1000000000ull / TYPEFORMER_BOARD_CPU_HZ;
}

std::size_t linked_ram_bytes(std::uintptr_t origin, std::size_t n) {
    const auto in_range = [&](const void* first, const void* last) -> std::size_t {
        const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(first),
                             b = reinterpret_cast<std::uintptr_t>(last);
        const std::uintptr_t lo = a > origin ? a : origin, hi = b < origin + n ? b : origin + n;
        return hi > lo ? hi - lo : 0;
    };
    return in_range(__data_start, __data_end) + in_range(__bss_start, __bss_end) +
           in_range(__ram2_start, __ram2_end) + in_range(__stack_limit, __stack_top);
}

std::span<const std::byte> stack_area() {
    return {reinterpret_cast<const std::byte*>(__stack_limit),
            static_cast<std::size_t>(reinterpret_cast<const char*>(__stack_top) -
                                     reinterpret_cast<const char*>(__stack_limit))};
}

}  // namespace board

// ---- the heap trap: any allocation fails the run (exit 4) ----
extern "C" {
void* malloc(std::size_t) {
    fail("heap: malloc", 4);
}
void* calloc(std::size_t, std::size_t) {
    fail("heap: calloc", 4);
}
void* realloc(void*, std::size_t) {
    fail("heap: realloc", 4);
}
void free(void*) {
    fail("heap: free", 4);
}
void* _malloc_r(void*, std::size_t) {
    fail("heap: _malloc_r", 4);
}
void* _calloc_r(void*, std::size_t, std::size_t) {
    fail("heap: _calloc_r", 4);
}
void* _realloc_r(void*, void*, std::size_t) {
    fail("heap: _realloc_r", 4);
}
void _free_r(void*, void*) {
    fail("heap: _free_r", 4);
}
void* _sbrk(std::ptrdiff_t) {
    fail("heap: _sbrk", 4);
}
}
void* operator new(std::size_t) {
    fail("heap: operator new", 4);
}
void* operator new[](std::size_t) {
    fail("heap: operator new[]", 4);
}
void* operator new(std::size_t, const std::nothrow_t&) noexcept {
    fail("heap: operator new", 4);
}
void* operator new[](std::size_t, const std::nothrow_t&) noexcept {
    fail("heap: operator new[]", 4);
}
void* operator new(std::size_t, std::align_val_t) {
    fail("heap: operator new", 4);
}
void* operator new[](std::size_t, std::align_val_t) {
    fail("heap: operator new[]", 4);
}
void operator delete(void*) noexcept {
    fail("heap: operator delete", 4);
}
void operator delete[](void*) noexcept {
    fail("heap: operator delete[]", 4);
}
void operator delete(void*, std::size_t) noexcept {
    fail("heap: operator delete", 4);
}
void operator delete[](void*, std::size_t) noexcept {
    fail("heap: operator delete[]", 4);
}
void operator delete(void*, std::align_val_t) noexcept {
    fail("heap: operator delete", 4);
}
void operator delete[](void*, std::align_val_t) noexcept {
    fail("heap: operator delete[]", 4);
}
void operator delete(void*, std::size_t, std::align_val_t) noexcept {
    fail("heap: operator delete", 4);
}
void operator delete[](void*, std::size_t, std::align_val_t) noexcept {
    fail("heap: operator delete[]", 4);
}
