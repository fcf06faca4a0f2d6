// Trains a seq2seq EDTransformer (Algorithm 8) to reverse digit strings with EDTraining
// (Algorithm 11, AdamW), then decodes held-out strings with EDInference (Algorithm 15, greedy,
// the cross-attention keys and values of z computed once) and reports the exact-match rate.
//
//   train_seq2seq [steps = 1500] [required exact-match rate = 0.99]   (its test: 700 steps)
//
// z = d_1 … d_n (3 ≤ n ≤ 8 digits, ids 0–9), x = [bos, d_n … d_1, eos]. Exits non-zero if the
// held-out exact-match rate is below the requirement.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>
#include <vector>

#include <typeformer/typeformer.hpp>

namespace tf = typeformer;

struct cfg {  // 10 digits + mask, bos, eos
    static constexpr std::size_t N_V = 13, l_max = 10, L = 2, H = 4, d_e = 64, d_mlp = 256,
                                 d_attn = 16, d_mid = 16;
};
using model = tf::EDTransformer<float, cfg>;
constexpr tf::token bos = tf::bos_token<cfg::N_V>, eos = tf::eos_token<cfg::N_V>;

struct example {
    std::vector<tf::token> z, x;
};

example make(tf::rng& gen) {
    example e;
    const std::size_t n = 3 + tf::prng::uniform_below(gen, 6);
    for (std::size_t i = 0; i < n; ++i)
        e.z.push_back(tf::prng::uniform_below(gen, 10));
    e.x.push_back(bos);
    e.x.insert(e.x.end(), e.z.rbegin(), e.z.rend());
    e.x.push_back(eos);
    return e;
}

int main(int argc, char** argv) {
    const std::size_t steps = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 1500;
    const double required = argc > 2 ? std::atof(argv[2]) : 0.99;
    tf::rng gen(7);
    std::vector<example> train, held_out;
    std::set<std::vector<tf::token>> seen;
    while (train.size() < 20000) {
        auto e = make(gen);
        seen.insert(e.z);
        train.push_back(std::move(e));
    }
    while (held_out.size() < 500)  // strings never seen in training
        if (auto e = make(gen); !seen.count(e.z))
            held_out.push_back(std::move(e));

    auto m = std::make_unique<model>();
    tf::init(*m, 1);
    auto st = std::make_unique<tf::training_state<model>>();
    tf::training_options opt{
        .epochs = 100,
        .batch_size = 32,
        .lr = 2e-3,
        .weight_decay = 0.01,
        .clip_norm = 1.0,
        .schedule = {.warmup_steps = 100, .decay_steps = steps - 100, .min_lr = 1e-4},
        .reduction = tf::loss_reduction::mean_per_token};
    std::printf("EDTransformer: %zu parameters; %zu training pairs, %zu held out\n",
                tf::parameter_count<model>, train.size(), held_out.size());
    double running = 0;
    const tf::status s = tf::EDTraining(*m, train, opt, *st, [&](const tf::step_report& r) {
        running += r.loss;
        if (r.step % 250 == 0) {
            std::printf("step %5llu  loss %.4f  lr %.2e\n", static_cast<unsigned long long>(r.step),
                        running / 250, r.lr);
            std::fflush(stdout);
            running = 0;
        }
        return r.step < steps;
    });
    if (s != tf::status::ok) {
        std::printf("training failed: %s\n", tf::status_message(s));
        return 1;
    }

    auto cache = std::make_unique<tf::kv_cache<model>>();
    std::size_t exact = 0;
    for (const auto& e : held_out) {
        const auto y = tf::EDInference(*m, *cache, e.z, {.tau = 0.0f}, gen);  // Algorithm 15
        exact += y == e.x;
    }
    const double rate = static_cast<double>(exact) / static_cast<double>(held_out.size());
    const auto y = tf::EDInference(*m, *cache, held_out[0].z, {.tau = 0.0f}, gen);
    std::printf("reverse(");
    for (auto t : held_out[0].z)
        std::printf("%u", t);
    std::printf(") = ");
    for (auto t : y)
        if (t < 10)
            std::printf("%u", t);
    std::printf("\nheld-out exact match: %zu / %zu = %.1f%% (required %.1f%%)\n", exact,
                held_out.size(), 100 * rate, 100 * required);
    return rate >= required ? 0 : 1;
}
