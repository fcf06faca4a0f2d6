// Both sides' worker threads must sleep, not spin, once their work is done: the benchmarks
// alternate typeformer and its peer on the same two cores, so a peer's spinning threads take
// the CPU from our next call, and ours from theirs.
//
//   OMP_WAIT_POLICY=passive      libgomp (typeformer's workers and libtorch's intra-op threads)
//   OPENBLAS_THREAD_TIMEOUT=4    OpenBLAS's own thread pool (Debian's pthread build, which
//                                libtorch's matrix products use) yields for 2^4 cycles, not 2^28,
//                                before it sleeps; its default spins in sched_yield for ~0.1 s
//                                after every product
//
// Both libraries read these once, when they load, so a binary started without them sets them
// and runs itself again (a value the caller set is kept).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include <unistd.h>

namespace typeformer_bench {

inline void quiet_worker_threads(char** argv) {
    if (std::getenv("TYPEFORMER_BENCH_ENV_SET") != nullptr)
        return;
    const bool had_omp = std::getenv("OMP_WAIT_POLICY") != nullptr;
    const bool had_openblas = std::getenv("OPENBLAS_THREAD_TIMEOUT") != nullptr;
    ::setenv("OMP_WAIT_POLICY", "passive", 0);
    ::setenv("OPENBLAS_THREAD_TIMEOUT", "4", 0);
    ::setenv("TYPEFORMER_BENCH_ENV_SET", "1", 1);
    ::execv("/proc/self/exe", argv);
    // Still this process: the libraries have read their settings, so the JSON context must not
    // claim the values set above.
    std::perror("bench: cannot re-run itself with OMP_WAIT_POLICY and OPENBLAS_THREAD_TIMEOUT set");
    if (!had_omp)
        ::unsetenv("OMP_WAIT_POLICY");
    if (!had_openblas)
        ::unsetenv("OPENBLAS_THREAD_TIMEOUT");
}

inline std::string env_or(const char* name, const char* fallback) {
    const char* v = std::getenv(name);
    return v != nullptr ? v : fallback;
}

}  // namespace typeformer_bench
