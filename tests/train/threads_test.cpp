// Training and inference on threads: OpenMP workers of training_state (the same seed and thread
// count give the same bits) and one const model shared by std::threads. Their own binary, so the
// ThreadSanitizer pass of .ci/test builds only this.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <memory>
#include <span>
#include <thread>
#include <vector>

#include <typeformer/typeformer.hpp>

#include "models/model_support.hpp"
#include "train_config.hpp"

namespace tf = typeformer;
using namespace tf::testing;

namespace {

using train::cfg;
using train::D;
using train::E;

// Threads: the same seed and thread count give the same bits; another thread count gives the same
// parameters within rounding (only the order of the final sum of gradients changes).
#if !defined(_OPENMP)
#error "tests/train is built with OpenMP so that the workers really run on threads"
#endif
template <class Model, std::size_t Threads, class Train>
std::unique_ptr<Model> trained(Train train, double scale) {
    auto m = random_model<Model>(8, scale);
    auto st = std::make_unique<tf::training_state<Model, Threads>>();
    EXPECT_EQ(train(*m, *st), tf::status::ok);
    EXPECT_EQ(st->step, 6u);
    return m;
}

template <class Model, class Train>
void expect_thread_counts_agree(Train train, double scale = 0.4) {
    const auto one = trained<Model, 1>(train, scale);
    const auto three = trained<Model, 3>(train, scale);
    const auto three_again = trained<Model, 3>(train, scale);
    EXPECT_TRUE(tf::bit_equal(*three, *three_again));
    EXPECT_FALSE(tf::bit_equal(*three, *random_model<Model>(8, scale)));  // it trained
    // The key biases' gradient is zero in exact arithmetic (softmax ignores a shift common to
    // a column), so what both runs hold there is rounding noise (~1e-17) in a different order;
    // AdamW turns it into steps of about lr·g/ε ≈ 1e-11 each. Their bound is that noise over
    // the run's steps; every other entry is held to 1e-11 relative.
    for_each_named(
        [&](const std::string& name, const auto& a, const auto& b) {
            const auto x = leaf_span(a);
            const auto y = leaf_span(b);
            const double atol = name.ends_with("b_k") ? 1e-9 : 1e-11;
            for (std::size_t i = 0; i < x.size(); ++i)
                EXPECT_NEAR(x[i], y[i], atol + 1e-11 * std::fabs(y[i])) << name;
        },
        *three, *one);
}

TEST(Training, ThreadsGiveTheSameResult) {
    std::vector<std::vector<tf::token>> xs;
    for (std::size_t k = 0; k < 10; ++k)
        xs.push_back(random_tokens(2 + k % 6, cfg::N_V, 700 + k));
    tf::training_options o{
        .epochs = 2, .batch_size = 4, .lr = 0.01, .clip_norm = 1.0, .bert_replacement = true};
    expect_thread_counts_agree<D>([&](D& m, auto& st) { return tf::DTraining(m, xs, o, st); });
    expect_thread_counts_agree<E>([&](E& m, auto& st) { return tf::ETraining(m, xs, o, st); });
}

// A model of ≥ 2^17 scalars: the sum of the workers' gradients and AdamW after them run split
// between the threads too (training.hpp's update_parts).
struct big_cfg {
    static constexpr std::size_t N_V = 13, l_max = 8, L = 2, H = 2, d_e = 128, d_mlp = 384,
                                 d_attn = 32, d_mid = 64;
};
using Big = tf::DTransformer<double, big_cfg>;
static_assert(tf::detail::update_parts<Big, 3> == 3 && tf::detail::update_parts<D, 3> == 1);

TEST(Training, ThreadsGiveTheSameResultWithTheUpdateSplit) {
    std::vector<std::vector<tf::token>> xs;
    for (std::size_t k = 0; k < 10; ++k)
        xs.push_back(random_tokens(2 + k % 7, big_cfg::N_V, 800 + k));
    const tf::training_options o{.epochs = 2,
                                 .batch_size = 4,
                                 .lr = 0.01,
                                 .weight_decay = 0.1,
                                 .clip_norm = 1.0,
                                 .reduction = tf::loss_reduction::mean_per_token};
    expect_thread_counts_agree<Big>([&](Big& m, auto& st) { return tf::DTraining(m, xs, o, st); },
                                    0.08);
    tf::training_options sgd = o;  // the paper's update, split the same way
    sgd.method = tf::optimizer::sgd;
    sgd.weight_decay = 0;
    expect_thread_counts_agree<Big>([&](Big& m, auto& st) { return tf::DTraining(m, xs, sgd, st); },
                                    0.08);
}

// The parts cover every scalar of a leaf once, in order, cut at multiples of 16.
TEST(Training, UpdatePartsCoverEachLeafOnce) {
    for (std::size_t n : {1u, 15u, 16u, 17u, 100u, 384u, 1000u, 49152u})
        for (std::size_t parts = 1; parts <= 5; ++parts) {
            std::size_t next = 0;
            for (std::size_t k = 0; k < parts; ++k) {
                const auto p = tf::detail::leaf_part::of(n, k, parts);
                EXPECT_EQ(p.first, next) << n << " " << k << "/" << parts;
                EXPECT_LE(p.first, p.last);
                EXPECT_EQ(p.first % 16, 0u);
                next = p.last;
            }
            EXPECT_EQ(next, n) << n << " " << parts;
        }
}

// Split into parts, the gradients' sum and AdamW give what one part gives: the same bits for the
// sum and the update (element-wise), ‖∇‖² within rounding of a plain loop over the scalars.
TEST(Training, SplitUpdateEqualsTheWholeOne) {
    using State = tf::training_state<Big, 3>;
    auto whole = std::make_unique<State>();
    auto split = std::make_unique<State>();
    randomize(whole->grads, 31);
    randomize(whole->helpers[0].grads, 32);
    randomize(whole->helpers[1].grads, 33);
    randomize(whole->adam.m, 34, 0.1);
    randomize(whole->adam.v, 35, 0.1);
    for_each_named(  // v ≥ 0
        [](const std::string&, auto& v) {
            for (auto& x : leaf_span(v))
                x = x * x;
        },
        whole->adam.v);
    *split = *whole;
    double expected_sq = 0;  // the oracle: Σ (g0 + g1 + g2)², one scalar at a time
    for_each_named(
        [&](const std::string&, const auto& a, const auto& b, const auto& c) {
            const auto x = leaf_span(a), y = leaf_span(b), z = leaf_span(c);
            for (std::size_t i = 0; i < x.size(); ++i)
                expected_sq += (x[i] + y[i] + z[i]) * (x[i] + y[i] + z[i]);
        },
        whole->grads, whole->helpers[0].grads, whole->helpers[1].grads);

    const double sq_whole =
        tf::detail::sum_worker_gradients(*whole, 0, 1, std::make_index_sequence<2>{});
    double sq_split = 0;
    for (std::size_t k = 0; k < 3; ++k)
        sq_split += tf::detail::sum_worker_gradients(*split, k, 3, std::make_index_sequence<2>{});
    EXPECT_TRUE(tf::bit_equal(whole->grads, split->grads));
    EXPECT_NEAR(sq_whole, expected_sq, 1e-12 * expected_sq);
    EXPECT_NEAR(sq_split, expected_sq, 1e-12 * expected_sq);

    auto m_whole = random_model<Big>(36, 0.1);
    auto m_split = std::make_unique<Big>(*m_whole);
    const tf::adam_options ao{.lr = 0.01, .weight_decay = 0.1, .grad_scale = 0.25};
    tf::adam_step(*m_whole, whole->grads, whole->adam, ao);
    split->adam.step += 1;
    for (std::size_t k = 3; k-- > 0;)  // any order: the parts are disjoint
        tf::detail::adam_update(*m_split, split->grads, split->adam, ao, k, 3);
    EXPECT_TRUE(tf::bit_equal(*m_whole, *m_split));
    EXPECT_TRUE(tf::bit_equal(whole->adam.m, split->adam.m));
    EXPECT_TRUE(tf::bit_equal(whole->adam.v, split->adam.v));
    EXPECT_FALSE(tf::bit_equal(*m_split, *random_model<Big>(36, 0.1)));  // it stepped

    // SGD: θ − η∇ per scalar (the oracle: a plain loop), whole and in parts.
    auto s_whole = random_model<Big>(37, 0.1);
    auto s_split = std::make_unique<Big>(*s_whole);
    auto s_loop = std::make_unique<Big>(*s_whole);
    tf::sgd_step(*s_whole, whole->grads, 0.05);
    for (std::size_t k = 3; k-- > 0;)
        tf::detail::sgd_update(*s_split, split->grads, 0.05, k, 3);
    for_each_named(
        [](const std::string&, auto& p, const auto& g) {
            auto x = leaf_span(p);
            const auto y = leaf_span(g);
            for (std::size_t i = 0; i < x.size(); ++i)
                x[i] -= 0.05 * y[i];
        },
        *s_loop, whole->grads);
    EXPECT_TRUE(tf::bit_equal(*s_whole, *s_split));
    EXPECT_TRUE(tf::bit_equal(*s_whole, *s_loop));
}

// What threads share is the model, read only: forward, loss_and_grad and KV-cache sampling on
// one const model from four std::threads at once, each with its own workspace, gradients, cache
// and generator, give bit for bit what one thread gives alone (no hidden static or
// thread_local state; ThreadSanitizer watches this test in .ci/test's tsan section).
TEST(Threads, ConcurrentUseOfASharedModelIsSafeAndBitIdentical) {
    const auto m = random_model<D>(12, 0.4);
    struct result {
        double loss = 0;
        std::unique_ptr<D> grads = std::make_unique<D>();
        std::vector<tf::token> sampled;
    };
    auto run = [&](std::size_t k, result& r) {
        const auto x = random_tokens(3 + k % 4, cfg::N_V, 900 + k);
        auto ws = std::make_unique<tf::training_workspace<D>>();
        r.loss = tf::loss_and_grad(*m, x, *r.grads, *ws);
        auto cache = std::make_unique<tf::kv_cache<D>>();
        tf::rng gen(k);
        std::vector<tf::token> y(cfg::l_max);
        std::size_t n = 0;
        const std::vector<tf::token> prompt(x.begin(), x.begin() + 2);
        EXPECT_EQ(tf::try_DInference(*m, *cache, prompt, 4, {.tau = 0.8f, .top_k = 5}, gen,
                                     std::span(y), n),
                  tf::status::ok);
        r.sampled.assign(y.begin(), y.begin() + static_cast<std::ptrdiff_t>(n));
    };
    constexpr std::size_t N = 4;
    std::array<result, N> alone, together;
    for (std::size_t k = 0; k < N; ++k)
        run(k, alone[k]);
    for (int round = 0; round < 3; ++round) {
        for (auto& r : together)
            r = result{};
        std::vector<std::thread> threads;
        for (std::size_t k = 0; k < N; ++k)
            threads.emplace_back([&, k] { run(k, together[k]); });
        for (auto& t : threads)
            t.join();
        for (std::size_t k = 0; k < N; ++k) {
            EXPECT_EQ(together[k].loss, alone[k].loss) << k;
            EXPECT_TRUE(tf::bit_equal(*together[k].grads, *alone[k].grads)) << k;
            EXPECT_EQ(together[k].sampled, alone[k].sampled) << k;
            EXPECT_FALSE(together[k].sampled.empty());
        }
    }
}

}  // namespace
