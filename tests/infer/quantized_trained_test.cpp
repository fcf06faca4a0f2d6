// The quality cost of int8 on a *trained* model: a small character-level GPT trained with Adam
// for a fixed number of steps on /usr/share/common-licenses (the first 90% of the text), then
// quantized: int8 weights (q8), int8 weights and activations (q8a8), and an int8 KV cache
// (kv_int8, per head and per token, under float and q8a8 weights). Each is scored by the same
// decoding loop (the KV cache) on held-out windows of the last 10%: mean −log P per token, the
// largest logit difference from the float model and how often its most likely next token is the
// float model's. Prints the table docs/quantization.md quotes; fails when training did not train
// (held-out loss not 1 nat below chance) or when a form costs more than 0.05 nats/token (the
// documented bound).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "infer_support.hpp"

namespace tf = typeformer;
using namespace tf::testing;

namespace {

struct cfg_chars {  // printable ASCII and '\n' (96 ids), the three special tokens unused
    static constexpr std::size_t N_V = 99, l_max = 32, L = 2, H = 2, d_e = 48, d_mlp = 192,
                                 d_attn = 24, d_mid = 24;
};
using model = tf::DTransformer<float, cfg_chars>;
constexpr std::size_t l_max = cfg_chars::l_max;

std::vector<tf::token> licence_text() {
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator("/usr/share/common-licenses"))
        if (e.is_regular_file() && !e.is_symlink())
            files.push_back(e.path());
    std::sort(files.begin(), files.end());
    std::vector<tf::token> ids;
    for (const auto& f : files) {
        std::ifstream in(f, std::ios::binary);
        for (auto it = std::istreambuf_iterator<char>(in); it != std::istreambuf_iterator<char>();
             ++it) {
            const auto c = static_cast<unsigned char>(*it);
            ids.push_back(c == '\n' ? 95 : (c < 32 || c > 126) ? 31 : c - 32);  // '?' = 31
        }
    }
    return ids;
}

struct score {
    double loss = 0;  // mean −log P(x[t+1] | x[≤t]) over the held-out targets (nats)
    std::size_t targets = 0;
};

// Scores m on the windows through its KV cache; also returns each step's logits (for the
// difference between models).
template <class Storage = tf::kv_float, class Model>
score held_out(const Model& m, const std::vector<std::span<const tf::token>>& windows,
               std::vector<float>& all_logits) {
    auto cache = std::make_unique<tf::kv_cache<Model, Storage>>();
    score s;
    for (const auto& w : windows)
        for (std::size_t t = 0; t + 1 < w.size(); ++t) {
            EXPECT_EQ(
                t == 0 ? tf::try_prefill(m, *cache, w.first(1)) : tf::try_append(m, *cache, w[t]),
                tf::status::ok);
            const auto l = tf::logits(*cache);
            double mx = l[0];
            for (std::size_t i = 0; i < l.size(); ++i)
                mx = std::max(mx, static_cast<double>(l[i]));
            double z = 0;
            for (std::size_t i = 0; i < l.size(); ++i)
                z += std::exp(static_cast<double>(l[i]) - mx);
            s.loss += mx + std::log(z) - static_cast<double>(l[w[t + 1]]);
            ++s.targets;
            all_logits.insert(all_logits.end(), l.begin(), l.end());
        }
    s.loss /= static_cast<double>(s.targets);
    return s;
}

TEST(Q8Trained, HeldOutLossAndLogitsOfATrainedModel) {
    const auto ids = licence_text();
    ASSERT_GT(ids.size(), 100 * l_max);
    const std::size_t split = ids.size() * 9 / 10;
    auto m = std::make_unique<model>();
    auto grads = std::make_unique<model>();
    auto adam = std::make_unique<tf::adam_state<model>>();
    auto ws = std::make_unique<tf::training_workspace<model>>();
    tf::init(*m, 5);
    std::uint64_t state = 99;
    auto next = [&] {  // splitmix64: the same windows on every machine
        state += 0x9E3779B97F4A7C15ull;
        std::uint64_t z = state;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    };
    constexpr int steps = 2000;
    const tf::adam_options opt{.lr = 3e-3};  // Adam: the step does not scale with the loss
    for (int step = 0; step < steps; ++step) {
        const std::size_t start = next() % (split - l_max);
        tf::zero(*grads);
        tf::loss_and_grad(*m, std::span<const tf::token>(ids.data() + start, l_max), *grads, *ws);
        tf::adam_step(*m, *grads, *adam, opt);
    }

    std::vector<std::span<const tf::token>> windows;  // 48 evenly spaced held-out windows
    const std::size_t stride = (ids.size() - split - l_max) / 48;
    for (std::size_t i = 0; i < 48; ++i)
        windows.emplace_back(ids.data() + split + i * stride, l_max);
    std::vector<float> lf;
    const score sf = held_out(*m, windows, lf);
    const double chance = std::log(static_cast<double>(cfg_chars::N_V));
    std::printf("trained %d Adam steps; held-out %zu targets (chance ln %zu = %.3f)\n", steps,
                sf.targets, cfg_chars::N_V, chance);
    std::printf(
        "| weights, activations, KV cache | weights (B) | KV cache (B) | held-out loss "
        "(nats/token) | max \\|logit - float logit\\| | same argmax as float |\n");
    std::printf("|---|---|---|---|---|---|\n");
    std::printf("| float32, float32, float32 | %zu | %zu | %.4f | — | — |\n", sizeof(model),
                sizeof(tf::kv_cache<model>), sf.loss);
    EXPECT_LT(sf.loss, chance - 1.0) << "the float model did not train";

    // One quantized form against the float model: its row of the table, and the bound.
    auto compare = [&](const char* name, std::size_t weight_bytes, std::size_t cache_bytes,
                       auto&& run) {
        std::vector<float> lq;
        const score sq = run(lq);
        ASSERT_EQ(lf.size(), lq.size());
        double max_diff = 0, max_logit = 0;
        std::size_t same_argmax = 0;
        for (std::size_t k = 0; k < lf.size(); k += cfg_chars::N_V) {
            std::size_t af = 0, aq = 0;
            for (std::size_t i = 0; i < cfg_chars::N_V; ++i) {
                max_diff = std::max(max_diff, std::fabs(double(lq[k + i]) - lf[k + i]));
                max_logit = std::max(max_logit, std::fabs(double(lf[k + i])));
                af = lf[k + i] > lf[k + af] ? i : af;
                aq = lq[k + i] > lq[k + aq] ? i : aq;
            }
            same_argmax += af == aq;
        }
        std::printf("| %s | %zu | %zu | %.4f | %.4f (largest \\|logit\\| %.2f) | %zu of %zu |\n",
                    name, weight_bytes, cache_bytes, sq.loss, max_diff, max_logit, same_argmax,
                    sf.targets);
        EXPECT_LT(std::fabs(sq.loss - sf.loss), 0.05)
            << name << " costs more than the documented bound";
        EXPECT_GT(max_diff, 0.0) << name;  // the quantized form is scored, not the float one
    };
    using q8m = tf::q8<model>;
    using q8a8m = tf::q8a8<model>;
    auto q = std::make_unique<q8m>();
    auto qa = std::make_unique<q8a8m>();
    tf::quantize(*m, *q), tf::quantize(*m, *qa);
    compare("int8 + row scales, float32, float32", sizeof(q8m), sizeof(tf::kv_cache<q8m>),
            [&](auto& l) { return held_out(*q, windows, l); });
    compare("int8 + row scales, int8 per token, float32", sizeof(q8a8m),
            sizeof(tf::kv_cache<q8a8m>), [&](auto& l) { return held_out(*qa, windows, l); });
    using kv8 = tf::kv_int8<tf::per_head>;
    using kv8t = tf::kv_int8<tf::per_token>;
    compare("float32, float32, int8 per head", sizeof(model), sizeof(tf::kv_cache<model, kv8>),
            [&](auto& l) { return held_out<kv8>(*m, windows, l); });
    compare("float32, float32, int8 per token", sizeof(model), sizeof(tf::kv_cache<model, kv8t>),
            [&](auto& l) { return held_out<kv8t>(*m, windows, l); });
    compare("int8 + row scales, int8 per token, int8 per head", sizeof(q8a8m),
            sizeof(tf::kv_cache<q8a8m, kv8>),
            [&](auto& l) { return held_out<kv8>(*qa, windows, l); });
}

}  // namespace
