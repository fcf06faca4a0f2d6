// train_memory: the resident memory of a training run against what the types say it needs.
//
//   train_memory <tiny|small|baby> [steps] [--check R]
//
// Trains a DESIGN.md configuration (tied W_u, float) the way bench_models' train/<cfg> does
// (B = 4 sequences of l_max tokens a step, AdamW, training_state<Model, 2>: two OpenMP workers)
// for `steps` steps (default 5) and prints, in bytes:
//
//   constexpr  sizeof(Model) + sizeof(training_state<Model, 2>), known when the program compiles:
//              θ, Adam's m and v, and per worker a gradient and a workspace (footprint<Model>.total
//              counts one worker; the state holds the second worker's too)
//   data       the sequences (not part of any type)
//   baseline   VmRSS at main's entry: the loader, the shared libraries' pages touched so far
//   code       RssFile's growth since main's entry: the executable's and the shared libraries'
//              pages (code, tables) first touched by the run: "the binary"
//   heap       RssAnon's growth since main's entry: the model, the state, the data, the stacks
//   peak       VmHWM after the steps: the kernel's high-water mark of the resident set
//   ratio      (peak − baseline − code) / (constexpr + data)
//   allocs     heap allocations per step after a first, warm-up step (alloc_count.cpp; the
//              first parallel region starts libgomp's thread, which allocates)
//
// Issue 11's target is peak ≤ 1.1 × the footprint + the binary, i.e. ratio ≤ 1.1; `--check R`
// exits 1 when the ratio is above R (the bench_train_memory tests run `small 2` and `tiny 2`
// with `--check 1.1`).
// What is left above 1 is small and fixed (the two threads' stacks, glibc's heap bookkeeping), so
// the ratio approaches 1 as the model grows.
// Linux only (/proc/self/status).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include <typeformer/typeformer.hpp>

#include "alloc_count.hpp"
#include "configs.hpp"

namespace tf = typeformer;
using namespace typeformer_bench;

namespace {

// VmRSS, RssFile, RssAnon and VmHWM of /proc/self/status, in bytes (0 when missing), from one
// read(2) into a stack buffer. Reading them with an ifstream, one field per open, made the
// measurement move what it measures: the first ifstream touches ~64 KB of libstdc++'s locale
// data (anonymous pages), between the baseline's VmRSS and its RssAnon, which put the tiny
// configuration at 1.12 instead of 1.06.
struct resident {
    std::size_t rss = 0, file = 0, anon = 0, hwm = 0;
};

resident read_status() {
    resident r;
    char buf[8192];
    const int fd = ::open("/proc/self/status", O_RDONLY);
    if (fd < 0)
        return r;
    std::size_t len = 0;
    for (ssize_t got;
         len + 1 < sizeof buf && (got = ::read(fd, buf + len, sizeof buf - 1 - len)) > 0;)
        len += static_cast<std::size_t>(got);
    ::close(fd);
    buf[len] = '\0';
    auto field = [&](const char* name) -> std::size_t {  // "VmRSS:  1234 kB"
        const std::size_t n = std::strlen(name);
        for (const char* line = buf; *line != '\0';) {
            if (std::strncmp(line, name, n) == 0 && line[n] == ':')
                return std::strtoull(line + n + 1, nullptr, 10) * 1024;
            const char* next = std::strchr(line, '\n');
            if (next == nullptr)
                break;
            line = next + 1;
        }
        return 0;
    };
    r.rss = field("VmRSS");
    r.file = field("RssFile");
    r.anon = field("RssAnon");
    r.hwm = field("VmHWM");
    return r;
}

template <class C>
int run(const char* name, std::size_t steps, double check, const resident& start) {
    using model_t = tf::DTransformer<float, C>;
    using state_t = tf::training_state<model_t, train_threads>;
    constexpr std::size_t typed = sizeof(model_t) + sizeof(state_t);

    std::vector<std::vector<tf::token>> seqs;
    for (std::size_t b = 0; b < batch; ++b)
        seqs.push_back(tokens(C::l_max, C::N_V, 100 + b));
    const std::size_t data =
        batch * (sizeof(std::vector<tf::token>) + C::l_max * sizeof(tf::token));

    auto model = std::make_unique<model_t>();
    auto state = std::make_unique<state_t>();
    tf::init(*model, 1);
    const tf::training_options opt = train_options();
    std::size_t done = 0;
    double loss = 0;
    auto train = [&](std::size_t n) {
        std::size_t k = 0;
        return tf::DTraining(*model, seqs, opt, *state, [&](const tf::step_report& r) {
            loss = r.loss;
            ++done;
            return ++k < n;
        });
    };
    tf::status st = train(1);  // warm-up: libgomp starts its thread
    const std::uint64_t a0 = allocations();
    if (st == tf::status::ok && steps > 1)
        st = train(steps - 1);
    const std::uint64_t allocs = allocations() - a0;
    if (st != tf::status::ok) {
        std::fprintf(stderr, "train_memory: training failed: %s\n", tf::status_message(st));
        return 2;
    }
    const resident end = read_status();
    const std::size_t peak = end.hwm;
    auto growth = [](std::size_t now, std::size_t then) { return now > then ? now - then : 0; };
    const std::size_t code = growth(end.file, start.file);
    const std::size_t heap = growth(end.anon, start.anon);
    const double ratio = (double(peak) - double(start.rss) - double(code)) / double(typed + data);
    std::printf(
        "%-6s steps %zu (loss %.3f)  constexpr %zu  data %zu  baseline %zu  code %zu  "
        "heap %zu  peak %zu  ratio %.3f  allocs/step after the first %.1f\n",
        name, done, loss, typed, data, start.rss, code, heap, peak, ratio,
        done > 1 ? double(allocs) / double(done - 1) : 0.0);
    std::printf(
        "       footprint<Model>: parameters %zu  gradients %zu  adam_state %zu  "
        "activations %zu  total %zu (one worker)\n",
        tf::footprint<model_t>.parameters, tf::footprint<model_t>.gradients,
        tf::footprint<model_t>.adam_state, tf::footprint<model_t>.activations,
        tf::footprint<model_t>.total);
    if (check > 0 && ratio > check) {
        std::fprintf(stderr, "train_memory: %s: ratio %.3f is above %.3f\n", name, ratio, check);
        return 1;
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    const resident start = read_status();
    std::string cfg;
    std::size_t steps = 5;
    double check = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--check" && i + 1 < argc)
            check = std::atof(argv[++i]);
        else if (cfg.empty())
            cfg = a;
        else
            steps = std::strtoull(a.c_str(), nullptr, 10);
    }
    if (start.rss == 0 || start.file == 0) {
        std::fprintf(stderr,
                     "train_memory: no VmRSS or RssFile in /proc/self/status (Linux only)\n");
        return 2;
    }
    if (cfg == "tiny")
        return run<tiny_cfg>("tiny", steps, check, start);
    if (cfg == "small")
        return run<small_cfg>("small", steps, check, start);
    if (cfg == "baby")
        return run<baby_cfg>("baby", steps, check, start);
    std::fprintf(stderr, "usage: train_memory <tiny|small|baby> [steps] [--check R]\n");
    return 2;
}
