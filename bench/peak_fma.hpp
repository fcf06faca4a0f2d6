// The machine's limit for bench_kernels and bench_models: the peak FMA rate of one core, measured
// by independent FMA chains pinned in registers, and the same loop on every core at once.
#pragma once

#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <ctime>
#include <thread>
#include <vector>

// typeformer's backend first: it includes xsimd under GCC 12's AVX-512 workaround (a scalar
// build's backend does not include it)
#include <typeformer/kernels/backend.hpp>
#include <xsimd/xsimd.hpp>

namespace typeformer_bench {

// ---------------------------------------------------------------------------------------------
// Peak FMA rate: Acc independent chains acc ← acc·a + b, each one FMA per step. Acc must cover
// FMA latency × FMAs issued per cycle (4 × 2 on Zen 4/5 and Skylake-X: 8 already saturates), and
// fit the register file with the two constants (32 zmm / 16 ymm).
// ---------------------------------------------------------------------------------------------

// The chains for the default architecture: 16 with 32 vector registers (AVX-512, NEON64), 12
// with 16 (AVX2): 16 accumulators and the two constants do not fit 16 registers, and the spills
// halve the rate.
#if XSIMD_WITH_AVX512F || XSIMD_WITH_NEON64
inline constexpr int peak_chains = 16;
#else
inline constexpr int peak_chains = 12;
#endif

// An asm operand constraint for "any vector register".
#if defined(__x86_64__) || defined(__i386__)
#define TYPEFORMER_BENCH_VREG "+v"
#elif defined(__aarch64__)
#define TYPEFORMER_BENCH_VREG "+w"
#endif

template <class Arch, int Acc>
struct fma_chains {
    using batch = xsimd::batch<float, Arch>;
    static constexpr int steps = 256;  // per call; all Acc chains advance `steps` times
    static constexpr double flops_per_call = 2.0 * Acc * steps * batch::size;

    // The fixed point of acc·a + b is b / (1 − a) = 1: no overflow, no denormals. The chains are
    // locals of one non-inlined call, and the empty asm pins each in a register: otherwise GCC
    // may keep the array in memory (a load and a store per FMA) and the "peak" comes out 2–3×
    // low, or it drops the chains whose results are unused.
    [[gnu::noinline]] static float run() {
        const batch a(0.999f), b(0.001f);
        typename batch::register_type r[Acc];
#pragma GCC unroll 32
        for (int i = 0; i < Acc; ++i)
            r[i] = batch(1.0f + 0.01f * static_cast<float>(i));
        for (int s = 0; s < steps; ++s) {
#pragma GCC unroll 32
            for (int i = 0; i < Acc; ++i) {
                r[i] = xsimd::fma(batch(r[i]), a, b);
#ifdef TYPEFORMER_BENCH_VREG
                asm volatile("" : TYPEFORMER_BENCH_VREG(r[i]));
#endif
            }
        }
        batch t = r[0];
#pragma GCC unroll 32
        for (int i = 1; i < Acc; ++i)
            t += batch(r[i]);
        return xsimd::hadd(t);
    }
};

using peak_default = fma_chains<xsimd::default_arch, peak_chains>;

// CPU time of this thread: the machine is shared (2 cores, other builds running), and time
// spent descheduled is not the kernels' time.
inline double thread_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// The FMA rate of this thread over at least `seconds` of its CPU time.
template <class Chains>
double timed_fma_rate(double seconds) {
    const double t0 = thread_seconds();
    float sink = 0;
    std::int64_t calls = 0;
    double elapsed = 0;
    do {
        for (int r = 0; r < 1000; ++r)
            sink += Chains::run();
        calls += 1000;
        elapsed = thread_seconds() - t0;
    } while (elapsed < seconds);
    benchmark::DoNotOptimize(sink);
    return static_cast<double>(calls) * Chains::flops_per_call / elapsed;
}

// Best of a few short timed runs (no Google Benchmark machinery: it runs before Initialize).
template <class Chains>
double measure_peak_flops() {
    double best = 0;
    for (int trial = 0; trial < 10; ++trial)
        best = std::max(best, timed_fma_rate<Chains>(0.05));
    return best;
}

// The same loop on `threads` threads at once (one per core: the all-core limit): Σ over the
// threads of each one's rate in its own CPU time, best of a few trials. CPU time, as for one
// core: on a shared machine a thread descheduled for a while would otherwise lower the "limit".
template <class Chains>
double measure_peak_flops_threads(unsigned threads) {
    double best = 0;
    for (int trial = 0; trial < 5; ++trial) {
        std::atomic<unsigned> ready{0};
        std::vector<double> rate(threads, 0);
        std::vector<std::thread> pool;
        for (unsigned t = 0; t < threads; ++t)
            pool.emplace_back([&, t] {
                ++ready;
                while (ready.load() < threads) {
                }
                rate[t] = timed_fma_rate<Chains>(0.1);
            });
        for (auto& th : pool)
            th.join();
        double sum = 0;
        for (const double r : rate)
            sum += r;
        best = std::max(best, sum);
    }
    return best;
}

}  // namespace typeformer_bench
