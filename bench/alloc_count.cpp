// Counts every heap allocation of the process, whoever makes it (operator new, libtorch's
// posix_memalign, OpenBLAS's buffers): the executable defines malloc and its relatives, which the
// dynamic linker then binds for every shared library too (symbol interposition), and forwards them
// to glibc's own (__libc_*). Linked into bench_models only, never under a sanitizer (ASan brings
// its own malloc).
#include "alloc_count.hpp"

#include <atomic>
#include <cerrno>
#include <cstddef>

namespace {
std::atomic<std::uint64_t> g_allocations{0};
inline void count() noexcept {
    g_allocations.fetch_add(1, std::memory_order_relaxed);
}
}  // namespace

extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
void __libc_free(void*);

void* malloc(std::size_t n) {
    count();
    return __libc_malloc(n);
}
void* calloc(std::size_t n, std::size_t size) {
    count();
    return __libc_calloc(n, size);
}
void* realloc(void* p, std::size_t n) {
    count();
    return __libc_realloc(p, n);
}
void free(void* p) {
    __libc_free(p);
}
void* memalign(std::size_t alignment, std::size_t n) {
    count();
    return __libc_memalign(alignment, n);
}
void* aligned_alloc(std::size_t alignment, std::size_t n) {
    count();
    return __libc_memalign(alignment, n);
}
int posix_memalign(void** out, std::size_t alignment, std::size_t n) {
    count();
    void* p = __libc_memalign(alignment, n);
    if (p == nullptr)
        return ENOMEM;
    *out = p;
    return 0;
}
}

namespace typeformer_bench {
std::uint64_t allocations() noexcept {
    return g_allocations.load(std::memory_order_relaxed);
}
}  // namespace typeformer_bench
