// Trains a small character-level GPT (Algorithm 10, DTransformer) with Algorithm 13's loss and
// plain SGD, printing the loss as it falls, then reports the model's footprint.
//
//   train_gpt [text file or folder] [seconds = 60] [eta = 0.05]
//
// The default text is every licence in /usr/share/common-licenses (about 240 kB of English that
// every Debian machine has). Characters map to token ids 0…95 (bytes outside printable ASCII
// become '?'); the paper's three special tokens sit at N_V−3…N_V−1 and are unused here.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

// Small enough that plain SGD makes visible progress in a minute on two cores.
struct cfg {
    static constexpr std::size_t N_V = 99, l_max = 64, L = 2, H = 4, d_e = 64, d_mlp = 256,
                                 d_attn = 16, d_mid = 16;
};
using model = tf::DTransformer<float, cfg>;

// Printable ASCII (32…126) and '\n' are tokens 0…95; anything else is '?'.
tf::token encode(unsigned char c) {
    if (c == '\n')
        return 95;
    if (c < 32 || c > 126)
        c = '?';
    return static_cast<tf::token>(c - 32);
}
char decode(tf::token t) {
    return t == 95 ? '\n' : static_cast<char>(t + 32);
}

// The bytes of a file, or of every regular file in a folder (sorted by name).
std::string read_text(const std::filesystem::path& path) {
    namespace fs = std::filesystem;
    std::vector<fs::path> files;
    if (fs::is_directory(path)) {
        for (const auto& e : fs::directory_iterator(path))
            if (e.is_regular_file() && !e.is_symlink())
                files.push_back(e.path());
        std::sort(files.begin(), files.end());
    } else {
        files.push_back(path);
    }
    std::string text;
    for (const auto& f : files) {
        std::ifstream in(f, std::ios::binary);
        text.append(std::istreambuf_iterator<char>(in), {});
    }
    return text;
}

int main(int argc, char** argv) {
    const char* path = argc > 1 ? argv[1] : "/usr/share/common-licenses";
    const double seconds = argc > 2 ? std::atof(argv[2]) : 60.0;
    std::vector<tf::token> data;
    for (unsigned char c : read_text(path))
        data.push_back(encode(c));
    if (data.size() < 20 * cfg::l_max) {
        std::fprintf(stderr, "train_gpt: %s holds too little text (%zu bytes)\n", path,
                     data.size());
        return 1;
    }
    const std::size_t split = data.size() * 9 / 10;  // last 10% held out

    // One allocation each at set-up; nothing allocates inside the loop.
    auto theta = std::make_unique<model>();
    auto grads = std::make_unique<model>();
    auto ws = std::make_unique<tf::training_workspace<model>>();
    tf::init(*theta, 1337);

    constexpr auto fp = tf::footprint<model>;
    std::printf(
        "DTransformer<float, cfg>: L=%zu H=%zu d_e=%zu d_mlp=%zu l_max=%zu N_V=%zu, "
        "%zu parameters; %zu characters of text\n",
        cfg::L, cfg::H, cfg::d_e, cfg::d_mlp, cfg::l_max, cfg::N_V, tf::parameter_count<model>,
        data.size());
    std::printf(
        "footprint: parameters %zu B, gradients %zu B, activations (l_max) %zu B, "
        "inference total %zu B\n",
        fp.parameters, fp.gradients, fp.activations, fp.inference_total);

    // SGD step size per token; the loss is a sum over the l_max − 1 predicted positions.
    const float eta = static_cast<float>(argc > 3 ? std::atof(argv[3]) : 0.05) / cfg::l_max;
    std::uint64_t rng = 42;
    auto next = [&] {  // splitmix64: a window start that is the same on every machine
        rng += 0x9E3779B97F4A7C15ull;
        std::uint64_t z = rng;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    };
    auto window = [&](std::size_t begin, std::size_t end) {
        const std::size_t start = begin + next() % (end - begin - cfg::l_max);
        return std::span<const tf::token>(data.data() + start, cfg::l_max);
    };
    auto held_out_loss = [&] {  // the same 32 windows every time, so the numbers compare
        constexpr std::size_t n = 32;
        const std::size_t stride = (data.size() - split - cfg::l_max) / n;
        double sum = 0;
        for (std::size_t i = 0; i < n; ++i)
            sum += tf::loss(
                *theta, std::span<const tf::token>(data.data() + split + i * stride, cfg::l_max),
                *ws);
        return sum / (n * (cfg::l_max - 1.0));
    };

    const double first = held_out_loss();
    std::printf("  step  train loss/token  held-out loss/token  time\n");
    std::printf("%6d  %15s  %19.3f  %4.0fs   (ln %zu = %.2f is chance)\n", 0, "", first, 0.0,
                cfg::N_V, std::log(double(cfg::N_V)));
    const auto start = std::chrono::steady_clock::now();
    double last = first, running = 0, next_report = seconds / 12;
    int since = 0;
    for (int step = 1;; ++step) {  // Algorithm 13, one sequence per step
        tf::zero(*grads);
        const float loss = tf::loss_and_grad(*theta, window(0, split), *grads, *ws);  // 4–5
        tf::sgd_step(*theta, *grads, eta);                                            // 6
        running += loss / (cfg::l_max - 1.0), ++since;
        const double elapsed =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (elapsed >= next_report || elapsed >= seconds) {
            last = held_out_loss();
            std::printf("%6d  %15.3f  %19.3f  %4.0fs\n", step, running / since, last, elapsed);
            std::fflush(stdout);
            running = 0, since = 0, next_report += seconds / 12;
        }
        if (elapsed >= seconds)
            break;
    }

    // A taste of what it learned: greedy continuation of a prompt (Algorithm 14 with τ = 0).
    std::vector<tf::token> x;
    for (char c : std::string("This License"))
        x.push_back(encode(static_cast<unsigned char>(c)));
    std::printf("sample: This License");
    for (int i = 0; i < 60 && x.size() < cfg::l_max; ++i) {
        auto P = tf::forward(*theta, x, *ws);
        const std::size_t t = x.size() - 1;
        tf::token best = 0;
        for (tf::token v = 1; v < 96; ++v)
            if (P(v, t) > P(best, t))
                best = v;
        x.push_back(best);
        std::putchar(decode(best));
    }
    std::printf("\n");
    return last < first ? 0 : 1;  // the run fails if held-out loss did not fall
}
