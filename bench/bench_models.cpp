// Whole models of every DESIGN.md benchmark configuration, typeformer against libtorch's C++ API
// in the same binary, float, random weights:
//
//   config  N_V    l_max  L   H   d_e  d_mlp   tied W_u, d_attn = d_mid = d_e/H
//   tiny    64     32     2   2   32   128     train, forward, decode
//   small   256    128    4   4   128  512     train, forward, decode
//   baby    65     256    6   6   384  1536    train, forward, decode
//   gpt2    50257  1024   12  12  768  3072    forward, decode (inference only)
//
//   train/<cfg>       one step of B = 4 sequences of l_max tokens: forward, backward, AdamW.
//                     ours: DTraining with training_state<Model, 2> (the batch's sequences on
//                     two OpenMP threads); libtorch: autograd and torch::optim::AdamW
//   forward/<cfg>     the logits of B sequences of l_max tokens (B = 4; gpt2: 2). ours:
//                     try_logits per sequence, the sequences on two OpenMP threads, one
//                     workspace each; libtorch: one batched forward under InferenceMode
//   decode/<cfg>/p:N  one new token at position N through the KV cache (N = 1, l_max/2,
//                     l_max − 1: the cost must grow linearly with N). ours: kv_cache + try_append
//                     (DInference's step); libtorch: its own K/V cache tensors in torch_peer.cpp
//   blocks/<cfg>/1t   the train step's work on one thread, two ways: a user's loop of the public
//                     building blocks (zero, loss_and_grad per sequence into one gradient, then
//                     adam_step with the per-token mean as grad_scale) against DTraining with
//                     training_state<Model, 1>, alternating; counters blocks_ms, dtraining_ms,
//                     ratio = blocks_ms / dtraining_ms (issue 30, item 3)
//   peak_fma/1core, peak_fma/all   the FMA loop of peak_fma.hpp on one and on every core
//
// Every benchmark is a pair, and its `…/torch:<threads>t` suffix names the libtorch threads.
// Each iteration runs both sides, in alternating order, each timed by the wall clock, so the
// other processes of a shared machine slow both alike and the ratio is what the run measures.
// The benchmark's own time is ours; the counters:
//   ours_ms, torch_ms           mean wall-clock time of one step, forward or token
//   speedup                     torch_ms / ours_ms (> 1: typeformer is faster)
//   ours_tok_s, torch_tok_s     tokens per second (train, forward: B · l_max per call)
//   ours_gflops, torch_gflops   FLOPs by formula (flops_* below, printed at start-up) per second
//   ours_pct_peak, torch_pct_peak   of the all-core peak FMA rate measured at start-up
//   ours_allocs, torch_allocs   heap allocations per call (alloc_count.cpp counts malloc)
// Built without libtorch (TYPEFORMER_BENCH_LIBTORCH=OFF) only ours runs and the torch counters
// are absent. bench/README.md has the command and the figures; bench/report.py makes the tables.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include <typeformer/typeformer.hpp>

#if defined(_OPENMP)
#include <omp.h>
#endif

#include "alloc_count.hpp"
#include "configs.hpp"
#include "peak_fma.hpp"
#include "thread_env.hpp"
#if TYPEFORMER_BENCH_LIBTORCH
#include "torch_peer.hpp"
#endif

namespace tf = typeformer;
using namespace typeformer_bench;

namespace {

constexpr std::size_t forward_threads = 2;  // forward/<cfg>: sequences on 2 threads

// ---- FLOPs by formula: 2 per multiply-add of the matrix products; the full l × l scores (both
// sides compute the masked half too); element-wise work, softmax, norms and Adam left out ----

template <class C>
double flops_forward_sequence() {
    const double l = C::l_max, d = C::d_e, f = C::d_mlp, V = C::N_V;
    const double layer = 2 * l * d * 3 * d     // Q, K, V
                         + 2 * l * l * d       // Kᵀ Q, every head
                         + 2 * l * l * d       // V A
                         + 2 * l * d * d       // W_o
                         + 2 * 2 * l * d * f;  // the MLP's two maps
    return C::L * layer + 2 * l * d * V;       // + W_u
}
template <class C>
double flops_train_step() {  // backward = twice the forward's products
    return 3.0 * batch * flops_forward_sequence<C>();
}
template <class C>
double flops_decode(std::size_t position) {  // one column against position + 1 keys
    const double n = static_cast<double>(position + 1), d = C::d_e, f = C::d_mlp, V = C::N_V;
    return C::L * (2 * d * 3 * d + 2 * 2 * n * d + 2 * d * d + 2 * 2 * d * f) + 2 * d * V;
}

double g_peak_1 = 0, g_peak_all = 0;  // FLOP/s, measured in main before any benchmark
unsigned g_cores = 1;

// ---- the models, made on first use and kept (gpt2's parameters alone are 0.5 GB a side) ----

template <class C>
using model_t = tf::DTransformer<float, C>;

template <class C>
struct setup {
    std::unique_ptr<model_t<C>> model = std::make_unique<model_t<C>>();
    std::vector<std::vector<tf::token>> seqs;  // batch sequences of l_max tokens
    std::vector<std::int64_t> seqs64;          // the same, row-major (B, l_max), for libtorch
    std::unique_ptr<tf::training_state<model_t<C>, train_threads>> train;
    std::vector<std::unique_ptr<tf::inference_workspace<model_t<C>>>> ws;
    std::unique_ptr<tf::kv_cache<model_t<C>>> cache;
#if TYPEFORMER_BENCH_LIBTORCH
    std::unique_ptr<torch_gpt> peer;
#endif
    // blocks/<cfg>: a one-worker training state, and a user's own buffers for the same step
    std::unique_ptr<tf::training_state<model_t<C>, 1>> train1;
    std::unique_ptr<model_t<C>> grads;
    std::unique_ptr<tf::adam_state<model_t<C>>> adam;
    std::unique_ptr<tf::training_workspace<model_t<C>>> tws;
    bool prefilled = false;

    explicit setup(bool trainable) {
        tf::init(*model, 1);
        for (std::size_t b = 0; b < batch; ++b) {
            seqs.push_back(tokens(C::l_max, C::N_V, 100 + b));
            for (tf::token x : seqs.back())
                seqs64.push_back(x);
        }
        if (trainable)
            train = std::make_unique<tf::training_state<model_t<C>, train_threads>>();
        for (std::size_t k = 0; k < forward_threads; ++k)
            ws.push_back(std::make_unique<tf::inference_workspace<model_t<C>>>());
        cache = std::make_unique<tf::kv_cache<model_t<C>>>();
#if TYPEFORMER_BENCH_LIBTORCH
        peer = std::make_unique<torch_gpt>(
            gpt_shape{static_cast<std::int64_t>(C::N_V), static_cast<std::int64_t>(C::l_max),
                      static_cast<std::int64_t>(C::L), static_cast<std::int64_t>(C::H),
                      static_cast<std::int64_t>(C::d_e), static_cast<std::int64_t>(C::d_mlp)},
            batch, 1, trainable);
#endif
    }

    // Both caches hold positions 0 … l_max − 2; decoding at p then overwrites column p only.
    void prefill() {
        if (prefilled)
            return;
        const std::span<const tf::token> prompt(seqs[0].data(), C::l_max - 1);
        if (tf::try_prefill(*model, *cache, prompt) != tf::status::ok)
            std::abort();
#if TYPEFORMER_BENCH_LIBTORCH
        peer->prefill(seqs64.data(), C::l_max - 1);
#endif
        prefilled = true;
    }
};

template <class C>
setup<C>& get(bool trainable) {
    static std::unique_ptr<setup<C>> s;
    if (!s)
        s = std::make_unique<setup<C>>(trainable);
    return *s;
}

// ---- the three tasks, ours ----

template <class C>
float ours_train(setup<C>& s) {
    const tf::training_options opt = train_options();
    float loss = 0;
    const tf::status st =
        tf::DTraining(*s.model, s.seqs, opt, *s.train, [&](const tf::step_report& r) {
            loss = static_cast<float>(r.loss);
            return false;  // one step per call
        });
    if (st != tf::status::ok)
        std::abort();
    return loss;
}

template <class C>
float ours_forward(setup<C>& s, std::size_t n) {
    float first[forward_threads] = {};
#pragma omp parallel for num_threads(forward_threads) schedule(static, 1)
    for (std::size_t k = 0; k < forward_threads; ++k)
        for (std::size_t b = k; b < n; b += forward_threads) {
            auto& ws = *s.ws[k];
            if (tf::try_logits(*s.model, std::span<const tf::token>(s.seqs[b]), ws) !=
                tf::status::ok)
                std::abort();
            first[k] += ws.out(0, 0);
        }
    return first[0];
}

template <class C>
float ours_decode(setup<C>& s, std::size_t position) {
    s.cache->n = position;  // forget the positions ≥ position (their columns are rewritten)
    if (tf::try_append(*s.model, *s.cache, s.seqs[1][position]) != tf::status::ok)
        std::abort();
    return tf::logits(*s.cache)[0];
}

// The same step (B sequences, AdamW, per-token mean) from the public building blocks, as a user
// writes Algorithm 13's loop: zero the gradient, add each sequence's, one AdamW step.
// per_call: loss_and_grad's form without a workspace, which allocates one for each call.
template <class C>
float blocks_train(setup<C>& s, bool per_call) {
    if (!s.grads) {
        s.grads = std::make_unique<model_t<C>>();
        s.adam = std::make_unique<tf::adam_state<model_t<C>>>();
        s.tws = std::make_unique<tf::training_workspace<model_t<C>>>();
    }
    const tf::training_options opt = train_options();
    tf::zero(*s.grads);
    double loss = 0;
    std::size_t tokens = 0;
    for (const auto& x : s.seqs) {
        const std::span<const tf::token> xs(x);
        loss += per_call ? tf::loss_and_grad(*s.model, xs, *s.grads)
                         : tf::loss_and_grad(*s.model, xs, *s.grads, *s.tws);
        tokens += x.size() - 1;
    }
    tf::adam_step(*s.model, *s.grads, *s.adam,
                  {.lr = opt.lr,
                   .weight_decay = opt.weight_decay,
                   .grad_scale = 1.0 / static_cast<double>(tokens)});
    return static_cast<float>(loss / static_cast<double>(tokens));
}

template <class C>
float dtraining_1t(setup<C>& s) {
    if (!s.train1)
        s.train1 = std::make_unique<tf::training_state<model_t<C>, 1>>();
    float loss = 0;
    if (tf::DTraining(*s.model, s.seqs, train_options(), *s.train1, [&](const tf::step_report& r) {
            loss = static_cast<float>(r.loss);
            return false;
        }) != tf::status::ok)
        std::abort();
    return loss;
}

// ---- the pair: both sides per iteration, alternating which goes first ----

struct side {
    double seconds = 0;
    std::uint64_t allocs = 0;
};

template <class F>
void timed(side& s, F&& f) {
    const std::uint64_t a0 = allocations();
    const auto t0 = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(f());
    const auto t1 = std::chrono::steady_clock::now();
    s.allocs += allocations() - a0;
    s.seconds += std::chrono::duration<double>(t1 - t0).count();
}

struct task_info {
    double flops;   // per call
    double tokens;  // per call
};

struct pair_names {
    const char* ours = "ours";
    const char* peer = "torch";
    const char* ratio = "speedup";  // peer_ms / ours_ms
    bool has_peer = TYPEFORMER_BENCH_LIBTORCH != 0;
};

template <class Ours, class Peer>
void run_pair(benchmark::State& state, task_info info, int torch_threads, Ours&& ours, Peer&& peer,
              const pair_names& names = {}) {
#if TYPEFORMER_BENCH_LIBTORCH
    torch_gpt::set_threads(torch_threads);
#else
    (void)torch_threads;
#endif
    benchmark::DoNotOptimize(ours());  // warm-up: first touch of every buffer, libtorch's caches
    benchmark::DoNotOptimize(peer());
    side a, b;
    std::int64_t n = 0;
    for (auto _ : state) {
        const double before = a.seconds;
        if (n % 2 == 0) {
            timed(a, ours);
            timed(b, peer);
        } else {
            timed(b, peer);
            timed(a, ours);
        }
        state.SetIterationTime(a.seconds - before);
        ++n;
    }
    const double N = static_cast<double>(n);
    auto put = [&](const char* who, const side& x, bool present) {
        if (!present)
            return;
        const double t = x.seconds / N;
        state.counters[std::string(who) + "_ms"] = 1e3 * t;
        state.counters[std::string(who) + "_tok_s"] = info.tokens / t;
        state.counters[std::string(who) + "_gflops"] = info.flops / t * 1e-9;
        state.counters[std::string(who) + "_pct_peak"] = 100.0 * info.flops / t / g_peak_all;
        state.counters[std::string(who) + "_allocs"] = static_cast<double>(x.allocs) / N;
    };
    put(names.ours, a, true);
    put(names.peer, b, names.has_peer);
    if (names.has_peer)
        state.counters[names.ratio] = b.seconds / a.seconds;
}

#if TYPEFORMER_BENCH_LIBTORCH
#define TYPEFORMER_BENCH_PEER(expr) [&] { return expr; }
#else
#define TYPEFORMER_BENCH_PEER(expr) [] { return 0.0f; }
#endif

template <class C>
void bm_train(benchmark::State& state) {
    auto& s = get<C>(true);
    run_pair(
        state, {flops_train_step<C>(), double(batch * C::l_max)}, static_cast<int>(state.range(0)),
        [&] { return ours_train(s); }, TYPEFORMER_BENCH_PEER(s.peer->train_step(s.seqs64.data())));
}

// Both sides on one thread (the OpenMP threads of the products too): the building blocks'
// ratio is dtraining_ms / blocks_ms.
template <class C>
void bm_blocks(benchmark::State& state) {
    auto& s = get<C>(true);
#if defined(_OPENMP)
    const int threads = omp_get_max_threads();
    omp_set_num_threads(1);
#endif
    run_pair(
        state, {flops_train_step<C>(), double(batch * C::l_max)}, 1,
        [&] { return blocks_train(s, state.range(0) != 0); }, [&] { return dtraining_1t(s); },
        {.ours = "blocks",
         .peer = "dtraining",
         .ratio = "dtraining_over_blocks",
         .has_peer = true});
#if defined(_OPENMP)
    omp_set_num_threads(threads);
#endif
}

template <class C>
void bm_forward(benchmark::State& state, std::size_t n, bool trainable) {
    auto& s = get<C>(trainable);
    run_pair(
        state, {double(n) * flops_forward_sequence<C>(), double(n * C::l_max)},
        static_cast<int>(state.range(0)), [&] { return ours_forward(s, n); },
        TYPEFORMER_BENCH_PEER(s.peer->forward(s.seqs64.data(), std::int64_t(n))));
}

template <class C>
void bm_decode(benchmark::State& state, std::size_t position, bool trainable) {
    auto& s = get<C>(trainable);
    s.prefill();
    run_pair(
        state, {flops_decode<C>(position), 1.0}, static_cast<int>(state.range(0)),
        [&] { return ours_decode(s, position); },
        TYPEFORMER_BENCH_PEER(
            s.peer->decode_at(std::int64_t(position), std::int64_t(s.seqs[1][position]))));
}

void bm_peak(benchmark::State& state) {
    using chains = peak_default;
    for (auto _ : state)
        benchmark::DoNotOptimize(chains::run());
    state.counters["gflops"] = benchmark::Counter(chains::flops_per_call * 1e-9,
                                                  benchmark::Counter::kIsIterationInvariantRate);
}

template <class C>
void add_config(const std::string& name, bool trainable, std::size_t fwd_batch) {
    std::printf(
        "%-6s FLOPs by formula: train step (B=%zu) %.4g, forward per sequence %.4g, "
        "decode at p=1 %.4g, at p=l_max-1 %.4g\n",
        name.c_str(), batch, trainable ? flops_train_step<C>() : 0.0, flops_forward_sequence<C>(),
        flops_decode<C>(1), flops_decode<C>(C::l_max - 1));
    std::vector<int> threads{2};
#if TYPEFORMER_BENCH_LIBTORCH
    threads = {1, 2};
#endif
    if (trainable)
        for (const int per_call : {0, 1})
            benchmark::RegisterBenchmark(
                ("blocks/" + name + (per_call ? "/ws:per_call" : "/ws:own") + "/1t").c_str(),
                bm_blocks<C>)
                ->Arg(per_call)
                ->UseManualTime()
                ->Unit(benchmark::kMillisecond);
    for (const int t : threads) {
        const std::string peer = "/torch:" + std::to_string(t) + "t";
        if (trainable)
            benchmark::RegisterBenchmark(("train/" + name + peer).c_str(), bm_train<C>)
                ->Arg(t)
                ->UseManualTime()
                ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("forward/" + name + peer).c_str(), bm_forward<C>, fwd_batch,
                                     trainable)
            ->Arg(t)
            ->UseManualTime()
            ->Unit(benchmark::kMillisecond);
        for (const std::size_t p : {std::size_t{1}, C::l_max / 2, C::l_max - 1})
            benchmark::RegisterBenchmark(
                ("decode/" + name + "/p:" + std::to_string(p) + peer).c_str(), bm_decode<C>, p,
                trainable)
                ->Arg(t)
                ->UseManualTime()
                ->Unit(benchmark::kMicrosecond);
    }
}

}  // namespace

int main(int argc, char** argv) {
    typeformer_bench::quiet_worker_threads(argv);
    using chains = peak_default;
    g_cores = std::max(1u, std::thread::hardware_concurrency());
    g_peak_1 = measure_peak_flops<chains>();
    g_peak_all = measure_peak_flops_threads<chains>(g_cores);
    std::printf("peak FMA (%s): one core %.1f GFLOP/s, %u cores %.1f GFLOP/s\n",
                xsimd::default_arch::name(), g_peak_1 * 1e-9, g_cores, g_peak_all * 1e-9);

    add_config<tiny_cfg>("tiny", true, batch);
    add_config<small_cfg>("small", true, batch);
    add_config<baby_cfg>("baby", true, batch);
    add_config<gpt2_cfg>("gpt2", false, 2);
    std::fflush(stdout);

    benchmark::RegisterBenchmark("peak_fma/1core", bm_peak);
    benchmark::RegisterBenchmark("peak_fma/all", bm_peak)
        ->Threads(static_cast<int>(g_cores))
        ->UseRealTime();

    benchmark::AddCustomContext("peak_fma_1core_gflops", std::to_string(g_peak_1 * 1e-9));
    benchmark::AddCustomContext("peak_fma_all_gflops", std::to_string(g_peak_all * 1e-9));
    benchmark::AddCustomContext("cores", std::to_string(g_cores));
    benchmark::AddCustomContext("xsimd_arch", xsimd::default_arch::name());
    benchmark::AddCustomContext("OMP_WAIT_POLICY",
                                typeformer_bench::env_or("OMP_WAIT_POLICY", "(unset)"));
    benchmark::AddCustomContext("OPENBLAS_THREAD_TIMEOUT",
                                typeformer_bench::env_or("OPENBLAS_THREAD_TIMEOUT", "(unset)"));
    benchmark::AddCustomContext("typeformer_backend", TYPEFORMER_SIMD ? "simd" : "scalar");
    benchmark::AddCustomContext("train_threads", std::to_string(train_threads));

    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
