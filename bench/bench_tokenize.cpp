// GPT-2 encoding (tokenize/gpt2.hpp, GPT-2's own encoder.json and vocab.bpe) against tiktoken in
// the same run: npm's tiktoken (OpenAI's tokenizer, its Rust core compiled to WebAssembly, GPT-2's
// ranks bundled) in one node process started by this binary (tiktoken_peer.js).
//
//   gpt2/licences       the licence texts every Debian machine has (/usr/share/common-licenses,
//                       its regular files sorted by name, as typeformer-train reads the folder):
//                       ordinary English, ~300 KB
//   gpt2/word/<n>       one word of n random lowercase letters (n = 1000, 10000, 100000): a single
//                       piece for the pre-tokenizer, so the time is BPE merging's; the BigO and
//                       RMS rows are Google Benchmark's fit of ours' time to n (merging is
//                       O(n log n): a priority queue of pair ranks over a linked list)
//
// Paired, alternating: each iteration encodes the input once with each side, ours first on even
// iterations, tiktoken first on odd ones, so the other processes of a shared machine slow both
// alike and the ratio is what the run measures. Ours is timed by the wall clock around
// gpt2::encode(std::string_view); tiktoken by node's process.hrtime around encode_ordinary(string)
// inside the node process (the request over a pipe is not timed; converting the JavaScript string
// to UTF-8 for the WebAssembly is, since every caller of tiktoken's JavaScript API pays it). Each
// side's first call on an input is an untimed warm-up. Both sides' ids are compared on every
// call (count and FNV-1a checksum): a difference ends the run with an error.
//
// The benchmark's own time is ours; the counters (means over the iterations):
//   ours_ms, tiktoken_ms        one encode of the input
//   ours_MB_s, tiktoken_MB_s    input bytes (UTF-8) per second, 10^6 bytes per MB
//   speedup                     tiktoken_ms / ours_ms (> 1: typeformer is faster)
//   ours_cpu_ms, tiktoken_cpu_ms, ours_cpu_MB_s, tiktoken_cpu_MB_s, cpu_speedup
//                               the same in CPU time (the process's, user + system: every
//                               thread of node's): on a loaded machine the wall clock also counts
//                               the time a side waited for a core
//   tokens                      ids per encode (the same on both sides)
// bench/README.md has the command and the figures.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <random>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <typeformer/io/read_file.hpp>
#include <typeformer/tokenize/gpt2.hpp>

extern char** environ;

namespace tk = typeformer::tokenize;

namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const std::string& what) {
    std::fprintf(stderr, "bench_tokenize: %s\n", what.c_str());
    std::exit(1);
}

struct input {
    std::string name, text;
    bool warmed = false;
};

std::string licences() {
    const fs::path dir = "/usr/share/common-licenses";
    std::vector<fs::path> files;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.is_regular_file(ec))
            files.push_back(e.path());
    if (ec || files.empty())
        fail("cannot read the licence texts in " + dir.string());
    std::sort(files.begin(), files.end());
    std::string text;
    for (const auto& f : files)
        text += typeformer::io::read_file(f);
    return text;
}

std::string random_word(std::size_t n) {
    std::mt19937_64 gen(n);
    std::string w(n, 'a');
    for (auto& c : w)
        c = static_cast<char>('a' + gen() % 26);
    return w;
}

constexpr std::size_t word_lengths[] = {1000, 10000, 100000};

std::vector<input>& inputs() {
    static std::vector<input> all = [] {
        std::vector<input> v{{"licences", licences()}};
        for (const std::size_t n : word_lengths)
            v.push_back({"word/" + std::to_string(n), random_word(n)});
        return v;
    }();
    return all;
}

const tk::gpt2& tokenizer() {
    static const tk::gpt2 g =
        tk::gpt2::load(TYPEFORMER_GPT2_FILES "/encoder.json", TYPEFORMER_GPT2_FILES "/vocab.bpe");
    return g;
}

double process_cpu_seconds() {
    timespec t{};
    ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

std::uint32_t checksum(const std::vector<typeformer::token>& ids) {  // FNV-1a over the ids
    std::uint32_t h = 2166136261u;
    for (const typeformer::token t : ids)
        h = (h ^ t) * 16777619u;
    return h;
}

// The node process: inputs written to files it reads once, then one request line per encode.
class tiktoken_peer {
public:
    struct answer {
        double seconds, cpu_seconds;
        std::size_t tokens;
        std::uint32_t checksum;
    };

    explicit tiktoken_peer(const std::vector<input>& in) {
        std::string tmpl = (fs::temp_directory_path() / "bench_tokenize.XXXXXX").string();
        if (!::mkdtemp(tmpl.data()))
            fail("cannot make a temporary folder");
        const fs::path dir = tmpl;
        std::vector<std::string> args = {TYPEFORMER_NODE, TYPEFORMER_BENCH_DIR "/tiktoken_peer.js",
                                         TYPEFORMER_TIKTOKEN};
        for (std::size_t i = 0; i < in.size(); ++i) {
            const fs::path f = dir / (std::to_string(i) + ".txt");
            std::FILE* out = std::fopen(f.c_str(), "wb");
            if (!out ||
                std::fwrite(in[i].text.data(), 1, in[i].text.size(), out) != in[i].text.size() ||
                std::fclose(out) != 0)
                fail("cannot write " + f.string());
            args.push_back(f.string());
        }
        int to[2], from[2];
        if (::pipe2(to, O_CLOEXEC) != 0 || ::pipe2(from, O_CLOEXEC) != 0)
            fail("pipe failed");
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_adddup2(&fa, to[0], 0);
        posix_spawn_file_actions_adddup2(&fa, from[1], 1);
        std::vector<char*> argv;
        for (auto& a : args)
            argv.push_back(a.data());
        argv.push_back(nullptr);
        const int rc = ::posix_spawn(&pid_, args[0].c_str(), &fa, nullptr, argv.data(), environ);
        posix_spawn_file_actions_destroy(&fa);
        ::close(to[0]);
        ::close(from[1]);
        if (rc != 0)
            fail("cannot start " + args[0] + ": " +
                 std::error_code(rc, std::generic_category()).message());
        to_ = ::fdopen(to[1], "w");
        from_ = ::fdopen(from[0], "r");
        std::signal(SIGPIPE, SIG_IGN);  // a dead peer is reported by the read, not a signal
        if (line() != "ready")
            fail("tiktoken_peer.js did not start (node " TYPEFORMER_NODE
                 ", tiktoken " TYPEFORMER_TIKTOKEN ")");
        fs::remove_all(dir);  // read by now
    }

    ~tiktoken_peer() {
        std::fclose(to_);  // end of input: node exits
        std::fclose(from_);
        int st = 0;
        ::waitpid(pid_, &st, 0);
    }

    answer encode(std::size_t i) {
        std::fprintf(to_, "%zu\n", i);
        std::fflush(to_);
        const std::string l = line();
        unsigned long long ns = 0, cpu_us = 0;
        std::size_t tokens = 0;
        unsigned long sum = 0;
        if (std::sscanf(l.c_str(), "%llu %llu %zu %lu", &ns, &cpu_us, &tokens, &sum) != 4)
            fail("tiktoken_peer.js answered '" + l + "'");
        return {static_cast<double>(ns) * 1e-9, static_cast<double>(cpu_us) * 1e-6, tokens,
                static_cast<std::uint32_t>(sum)};
    }

private:
    std::string line() {
        std::string s;
        for (int c; (c = std::fgetc(from_)) != EOF && c != '\n';)
            s += static_cast<char>(c);
        return s;
    }

    pid_t pid_ = 0;
    std::FILE* to_ = nullptr;
    std::FILE* from_ = nullptr;
};

tiktoken_peer& peer() {
    static tiktoken_peer p(inputs());
    return p;
}

void bm_encode(benchmark::State& state, std::size_t which) {
    input& in = inputs()[which];
    const tk::gpt2& g = tokenizer();
    tiktoken_peer& p = peer();
    using answer = tiktoken_peer::answer;
    auto ours = [&]() -> answer {
        const double c0 = process_cpu_seconds();
        const auto t0 = std::chrono::steady_clock::now();
        const std::vector<typeformer::token> ids = g.encode(in.text);
        const auto t1 = std::chrono::steady_clock::now();
        const double c1 = process_cpu_seconds();
        return {std::chrono::duration<double>(t1 - t0).count(), c1 - c0, ids.size(), checksum(ids)};
    };
    auto theirs = [&] { return p.encode(which); };
    auto check = [&](const answer& a, const answer& b) {
        if (a.tokens != b.tokens || a.checksum != b.checksum)
            fail("gpt2/" + in.name + ": the ids differ from tiktoken's (" +
                 std::to_string(a.tokens) + " against " + std::to_string(b.tokens) + " ids)");
    };
    if (!in.warmed) {
        check(ours(), theirs());
        in.warmed = true;
    }
    std::size_t tokens = 0;
    double ours_s = 0, peer_s = 0, ours_cpu = 0, peer_cpu = 0;
    std::int64_t n = 0;
    for (auto _ : state) {
        answer a, b;
        if (n % 2 == 0) {
            a = ours();
            b = theirs();
        } else {
            b = theirs();
            a = ours();
        }
        check(a, b);
        state.SetIterationTime(a.seconds);
        ours_s += a.seconds;
        peer_s += b.seconds;
        ours_cpu += a.cpu_seconds;
        peer_cpu += b.cpu_seconds;
        tokens = a.tokens;
        ++n;
    }
    const double N = static_cast<double>(n), MB = static_cast<double>(in.text.size()) * 1e-6;
    state.counters["ours_ms"] = 1e3 * ours_s / N;
    state.counters["tiktoken_ms"] = 1e3 * peer_s / N;
    state.counters["ours_MB_s"] = MB * N / ours_s;
    state.counters["tiktoken_MB_s"] = MB * N / peer_s;
    state.counters["speedup"] = peer_s / ours_s;
    state.counters["ours_cpu_ms"] = 1e3 * ours_cpu / N;
    state.counters["tiktoken_cpu_ms"] = 1e3 * peer_cpu / N;
    state.counters["cpu_speedup"] = peer_cpu / ours_cpu;
    state.counters["ours_cpu_MB_s"] = MB * N / ours_cpu;
    state.counters["tiktoken_cpu_MB_s"] = MB * N / peer_cpu;
    state.counters["tokens"] = static_cast<double>(tokens);
    state.SetComplexityN(static_cast<std::int64_t>(in.text.size()));
}

}  // namespace

int main(int argc, char** argv) {
    benchmark::AddCustomContext("gpt2_files", TYPEFORMER_GPT2_FILES);
    benchmark::AddCustomContext("tiktoken", TYPEFORMER_TIKTOKEN);
    benchmark::RegisterBenchmark("gpt2/licences", bm_encode, std::size_t{0})
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    // One family, so that Google Benchmark fits ours' time to n over its runs (BigO, RMS).
    auto* words = benchmark::RegisterBenchmark("gpt2/word", [](benchmark::State& state) {
        const auto n = static_cast<std::size_t>(state.range(0));
        const auto* it = std::find(std::begin(word_lengths), std::end(word_lengths), n);
        bm_encode(state, 1 + static_cast<std::size_t>(it - std::begin(word_lengths)));
    });
    for (const std::size_t n : word_lengths)
        words->Arg(static_cast<std::int64_t>(n));
    words->UseManualTime()->Unit(benchmark::kMillisecond)->Complexity();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
