// DTraining, ETraining, EDTraining (Algorithms 13, 12, 11) with minibatches, AdamW, clipping, the
// schedule and the loss reductions, against the same steps run by PyTorch (torch_train.py).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <memory>
#include <set>
#include <span>
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
using train::ED;

// Per entry, as torch.allclose: |a − b| ≤ atol + rtol·|b|.
template <class Model>
void expect_params_close(const Model& m, const bundle& out, double atol, double rtol) {
    std::size_t checked = 0;
    for_each_named(
        [&](const std::string& name, const auto& leaf) {
            const auto it = out.find("W." + name);
            ASSERT_NE(it, out.end()) << name;
            const array mine = to_array(leaf);
            ASSERT_EQ(mine.data.size(), it->second.data.size()) << name;
            for (std::size_t i = 0; i < mine.data.size(); ++i) {
                const double a = mine.data[i], b = it->second.data[i];
                EXPECT_LE(std::fabs(a - b), atol + rtol * std::fabs(b)) << name << "[" << i << "]";
            }
            ++checked;
        },
        m);
    EXPECT_EQ(checked, tf::parameter_tensor_count<Model>);
}

void put_options(bundle& in, const tf::training_options& o, const std::vector<double>& batches) {
    in["batches"] = array{{batches.size()}, batches};
    in["opt.method"] = scalar_array(o.method == tf::optimizer::sgd ? 0 : 1);
    in["opt.lr"] = scalar_array(o.lr);
    in["opt.beta1"] = scalar_array(o.beta1);
    in["opt.beta2"] = scalar_array(o.beta2);
    in["opt.eps"] = scalar_array(o.eps);
    in["opt.wd"] = scalar_array(o.weight_decay);
    in["opt.decay_gb"] = scalar_array(o.decay_gains_and_biases ? 1 : 0);
    in["opt.clip"] = scalar_array(o.clip_norm);
    in["opt.warmup"] = scalar_array(static_cast<double>(o.schedule.warmup_steps));
    in["opt.decay_steps"] = scalar_array(static_cast<double>(o.schedule.decay_steps));
    in["opt.min_lr"] = scalar_array(o.schedule.min_lr);
    in["opt.reduction"] = scalar_array(static_cast<double>(o.reduction));
}

// Runs `steps` steps of batch B over `data` here and in PyTorch; compares θ, the losses, the
// learning rates and the gradient norms.
template <class Model, class Run>
void expect_steps_match_torch(const std::vector<sequences>& data, const tf::training_options& o,
                              std::size_t steps, Run run) {
    auto m = random_model<Model>(7, 0.4);
    bundle in;
    in["ncases"] = scalar_array(static_cast<double>(steps * o.batch_size));
    for (std::size_t k = 0; k < steps * o.batch_size; ++k)
        write_case(in, "c" + std::to_string(k) + ".", *m, data[k]);
    put_options(in, o, std::vector<double>(steps, static_cast<double>(o.batch_size)));
    const bundle out = run_python("train/torch_train.py", in);

    auto st = std::make_unique<tf::training_state<Model>>();
    std::vector<tf::step_report> seen;
    ASSERT_EQ(run(*m, o, *st,
                  [&](const tf::step_report& r) {
                      seen.push_back(r);
                      return seen.size() < steps;
                  }),
              tf::status::ok);
    ASSERT_EQ(seen.size(), steps);
    for (std::size_t s = 0; s < steps; ++s) {
        const auto key = std::to_string(s);
        EXPECT_NEAR(seen[s].loss, out.at("loss." + key).data[0], 1e-9 * (1 + seen[s].loss));
        EXPECT_NEAR(seen[s].lr, out.at("lr." + key).data[0], 1e-15);
        EXPECT_NEAR(seen[s].grad_norm, out.at("norm." + key).data[0], 1e-9);
        EXPECT_EQ(seen[s].step, s + 1);
    }
    expect_params_close(*m, out, 1e-9, 1e-9);
}

std::vector<sequences> d_data(std::size_t n) {
    std::vector<sequences> v;
    for (std::size_t k = 0; k < n; ++k)
        v.push_back(sequences::D(random_tokens(2 + k % (cfg::l_max - 1), cfg::N_V, 100 + k)));
    return v;
}

TEST(DTraining, PaperAlgorithmSGDStepsEqualPyTorch) {
    const auto data = d_data(2);
    tf::training_options o{.epochs = 1, .batch_size = 1, .method = tf::optimizer::sgd, .lr = 0.05};
    o.shuffle = false;
    expect_steps_match_torch<D>(data, o, 2, [&](D& m, auto& opt, auto& st, auto obs) {
        std::vector<std::vector<tf::token>> xs;
        for (const auto& s : data)
            xs.push_back(s.x);
        return tf::DTraining(m, xs, opt, st, obs);
    });
}

TEST(DTraining, AdamWClippingScheduleAndPerTokenMeanEqualPyTorch) {
    const auto data = d_data(6);
    tf::training_options o{.epochs = 1,
                           .batch_size = 3,
                           .lr = 0.01,
                           .weight_decay = 0.1,
                           .clip_norm = 0.5,
                           .schedule = {.warmup_steps = 1, .decay_steps = 3, .min_lr = 0.001},
                           .reduction = tf::loss_reduction::mean_per_token,
                           .shuffle = false};
    expect_steps_match_torch<D>(data, o, 2, [&](D& m, auto& opt, auto& st, auto obs) {
        std::vector<std::vector<tf::token>> xs;
        for (const auto& s : data)
            xs.push_back(s.x);
        return tf::DTraining(m, xs, opt, st, obs);
    });
    // the same with every tensor decayed and the sum reduction
    o.decay_gains_and_biases = true;
    o.reduction = tf::loss_reduction::sum;
    expect_steps_match_torch<D>(data, o, 2, [&](D& m, auto& opt, auto& st, auto obs) {
        std::vector<std::vector<tf::token>> xs;
        for (const auto& s : data)
            xs.push_back(s.x);
        return tf::DTraining(m, xs, opt, st, obs);
    });
}

TEST(EDTraining, AdamWMeanPerSequenceEqualsPyTorch) {
    std::vector<sequences> data;
    for (std::size_t k = 0; k < 4; ++k)
        data.push_back(sequences::ED(random_tokens(1 + k, cfg::N_V, 200 + k),
                                     random_tokens(2 + k, cfg::N_V, 300 + k)));
    tf::training_options o{.epochs = 1,
                           .batch_size = 2,
                           .lr = 0.02,
                           .weight_decay = 0.05,
                           .clip_norm = 1.0,
                           .reduction = tf::loss_reduction::mean_per_sequence,
                           .shuffle = false};
    expect_steps_match_torch<ED>(data, o, 2, [&](ED& m, auto& opt, auto& st, auto obs) {
        std::vector<std::pair<std::vector<tf::token>, std::vector<tf::token>>> zx;
        for (const auto& s : data)
            zx.emplace_back(s.z, s.x);
        return tf::EDTraining(m, zx, opt, st, obs);
    });
}

// Algorithm 12: one step here (its masks drawn from the state's generator), then the same step
// in PyTorch on the x̃ and targets the step used (left in the state).
void expect_etraining_step(bool bert) {
    const auto x = random_tokens(cfg::l_max, cfg::N_V - 3, 400);
    // ε = 1e-6: Adam's first step is lr·g/(|g| + ε), so a gradient entry that is 0 up to rounding
    // (~1e-15, differently in each implementation) moves θ by lr·1e-15/ε; with ε = 1e-8 that is
    // the 1e-9 this test resolves.
    tf::training_options o{.lr = 0.01, .eps = 1e-6, .weight_decay = 0.1, .p_mask = 0.5};
    o.bert_replacement = bert;
    o.seed = 3;
    auto m = random_model<E>(7, 0.4);
    auto st = std::make_unique<tf::training_state<E>>();
    const std::vector<std::vector<tf::token>> data = {x};
    ASSERT_EQ(tf::ETraining(*m, data, o, *st), tf::status::ok);
    std::vector<tf::token> x_tilde(st->x_tilde.begin(), st->x_tilde.begin() + x.size());
    std::vector<double> targets;
    for (std::size_t t = 0; t < x.size(); ++t)
        targets.push_back(st->targets[t] == tf::no_target ? -1.0 : st->targets[t]);

    auto m0 = random_model<E>(7, 0.4);
    bundle in;
    in["ncases"] = scalar_array(1);
    write_case(in, "c0.", *m0, sequences::E(x_tilde, x));
    if (bert)
        in["c0.targets"] = array{{targets.size()}, targets};
    put_options(in, o, {1.0});
    const bundle out = run_python("train/torch_train.py", in);
    expect_params_close(*m, out, 1e-9, 1e-9);
}

TEST(ETraining, MaskedStepEqualsPyTorch) {
    expect_etraining_step(false);
    expect_etraining_step(true);
}

// Lines 4–5: each token is masked with probability p_mask, independently; BERT's replacement
// splits the chosen ones 80/10/10. Binomial z-scores and a chi-square, thresholds at ~1e-6.
TEST(ETraining, MaskingFrequencies) {
    constexpr std::size_t NV = cfg::N_V, n = 200000;
    std::vector<tf::token> x(n);
    for (std::size_t t = 0; t < n; ++t)
        x[t] = static_cast<tf::token>(t % (NV - 3));
    std::vector<tf::token> x_tilde(n), targets(n);
    tf::rng gen(11);
    const double p = 0.15;
    tf::detail::mask_tokens<NV>(x, p, false, gen, x_tilde.data(), targets.data());
    std::size_t masked = 0;
    for (std::size_t t = 0; t < n; ++t) {
        const bool chosen = targets[t] != tf::no_target;
        masked += chosen;
        EXPECT_EQ(x_tilde[t], chosen ? tf::mask_token<NV> : x[t]);
    }
    EXPECT_LT(std::fabs(masked - p * n) / std::sqrt(n * p * (1 - p)), 4.9);

    tf::detail::mask_tokens<NV>(x, p, true, gen, x_tilde.data(), targets.data());
    double counts[3] = {0, 0, 0};  // mask, changed to another token, unchanged
    for (std::size_t t = 0; t < n; ++t) {
        if (targets[t] == tf::no_target) {
            EXPECT_EQ(x_tilde[t], x[t]);
            continue;
        }
        EXPECT_EQ(targets[t], x[t]);
        EXPECT_LT(x_tilde[t], NV - 2);  // never bos or eos
        const int c = x_tilde[t] == tf::mask_token<NV> ? 0 : (x_tilde[t] != x[t] ? 1 : 2);
        ++counts[c];
    }
    // a random replacement equals the original with probability 1/(N_V − 3)
    const double chosen = counts[0] + counts[1] + counts[2];
    const double q_same = 1.0 / (NV - 3);
    const double expect[3] = {0.8 * chosen, 0.1 * (1 - q_same) * chosen,
                              (0.1 + 0.1 * q_same) * chosen};
    double chi2 = 0;
    for (int c = 0; c < 3; ++c)
        chi2 += (counts[c] - expect[c]) * (counts[c] - expect[c]) / expect[c];
    EXPECT_LT(chi2, 27.6);  // χ²(2) at p ≈ 1e-6
}

// An epoch visits every sequence once, in a seeded order; another seed, another order.
TEST(DTraining, ShuffledEpochsVisitEverySequenceOnce) {
    struct logging_data {
        std::vector<std::vector<tf::token>> xs;
        mutable std::vector<std::size_t> seen;
        std::size_t size() const { return xs.size(); }
        const std::vector<tf::token>& operator[](std::size_t i) const {
            seen.push_back(i);
            return xs[i];
        }
    };
    auto run = [](std::uint64_t seed) {
        logging_data data;
        for (std::size_t k = 0; k < 10; ++k)
            data.xs.push_back(random_tokens(3, cfg::N_V, k));
        auto m = random_model<D>(1);
        auto st = std::make_unique<tf::training_state<D>>();
        tf::training_options o{
            .epochs = 2, .batch_size = 4, .method = tf::optimizer::sgd, .lr = 0.01};
        o.seed = seed;
        EXPECT_EQ(tf::DTraining(*m, data, o, *st), tf::status::ok);
        EXPECT_EQ(st->step, 6u);  // 4 + 4 + 2 per epoch
        EXPECT_EQ(data.seen.size(), 20u);
        for (std::size_t e = 0; e < 2; ++e) {
            std::set<std::size_t> epoch(data.seen.begin() + 10 * e,
                                        data.seen.begin() + 10 * e + 10);
            EXPECT_EQ(epoch.size(), 10u);
        }
        return data.seen;
    };
    EXPECT_EQ(run(5), run(5));
    EXPECT_NE(run(5), run(6));
}

// A NaN is reported with its step and nothing of that step is applied; the run resumes.
TEST(DTraining, NonFiniteStepIsRefusedAndResumable) {
    auto m = random_model<D>(3);
    auto st = std::make_unique<tf::training_state<D>>();
    const std::vector<std::vector<tf::token>> data = {{1, 2, 3, 4}, {5, 6, 7}, {8, 9, 1}};
    tf::training_options o{.epochs = 3, .lr = 0.01};
    o.shuffle = false;
    // two good steps, then a NaN in W_u
    int calls = 0;
    ASSERT_EQ(tf::DTraining(*m, data, o, *st, [&](const tf::step_report&) { return ++calls < 2; }),
              tf::status::ok);
    auto before = std::make_unique<D>(*m);
    const auto st_before = std::make_unique<tf::training_state<D>>(*st);
    m->unembedding.W_u(0, 0) = std::numeric_limits<double>::quiet_NaN();
    auto nan_model = std::make_unique<D>(*m);
    tf::step_report last{};
    EXPECT_EQ(tf::DTraining(*m, data, o, *st, [&](const tf::step_report& r) { last = r; }),
              tf::status::non_finite);
    EXPECT_EQ(last.code, tf::status::non_finite);
    EXPECT_EQ(last.step, 2u);
    EXPECT_TRUE(tf::bit_equal(*m, *nan_model));  // nothing applied
    EXPECT_EQ(st->step, st_before->step);
    EXPECT_EQ(st->next, st_before->next);
    EXPECT_EQ(st->gen, st_before->gen);
    EXPECT_TRUE(tf::bit_equal(st->adam.m, st_before->adam.m));
    // repaired, the run goes on from the same place
    m->unembedding.W_u(0, 0) = before->unembedding.W_u(0, 0);
    EXPECT_EQ(tf::DTraining(*m, data, o, *st), tf::status::ok);
    EXPECT_EQ(st->step, 9u);
}

TEST(Training, BadOptionsAreRefusedAndTouchNothing) {
    auto m = random_model<D>(4);
    auto e = random_model<E>(4);
    const auto m0 = std::make_unique<D>(*m);
    auto st = std::make_unique<tf::training_state<D>>();
    auto est = std::make_unique<tf::training_state<E>>();
    const std::vector<std::vector<tf::token>> data = {{1, 2, 3}};
    const double nan = std::numeric_limits<double>::quiet_NaN();
    EXPECT_EQ(tf::DTraining(*m, data, {.lr = 0}, *st), tf::status::invalid_learning_rate);
    EXPECT_EQ(tf::DTraining(*m, data, {.lr = -1}, *st), tf::status::invalid_learning_rate);
    EXPECT_EQ(tf::DTraining(*m, data, {.lr = nan}, *st), tf::status::invalid_learning_rate);
    EXPECT_EQ(tf::DTraining(*m, data, {.batch_size = 0}, *st),
              tf::status::invalid_training_options);
    EXPECT_EQ(tf::DTraining(*m, data, {.beta1 = 1.0}, *st), tf::status::invalid_adam_options);
    EXPECT_EQ(tf::DTraining(*m, data, {.eps = 0}, *st), tf::status::invalid_adam_options);
    EXPECT_EQ(tf::DTraining(*m, data, {.weight_decay = -0.1}, *st),
              tf::status::invalid_adam_options);
    EXPECT_EQ(tf::DTraining(*m, data, {.clip_norm = nan}, *st),
              tf::status::invalid_training_options);
    EXPECT_EQ(tf::ETraining(*e, data, {.p_mask = 0}, *est), tf::status::invalid_p_mask);
    EXPECT_EQ(tf::ETraining(*e, data, {.p_mask = 1}, *est), tf::status::invalid_p_mask);
    EXPECT_EQ(tf::ETraining(*e, data, {.p_mask = -0.5}, *est), tf::status::invalid_p_mask);
    EXPECT_EQ(tf::ETraining(*e, data, {.p_mask = nan}, *est), tf::status::invalid_p_mask);
    EXPECT_EQ(tf::DTraining(*m, data, {.lr = std::numeric_limits<double>::infinity()}, *st),
              tf::status::invalid_learning_rate);
    EXPECT_EQ(tf::DTraining(*m, data, {.beta1 = -0.1}, *st), tf::status::invalid_adam_options);
    EXPECT_EQ(tf::DTraining(*m, data, {.beta1 = nan}, *st), tf::status::invalid_adam_options);
    EXPECT_EQ(tf::DTraining(*m, data, {.beta2 = 1.0}, *st), tf::status::invalid_adam_options);
    EXPECT_EQ(tf::DTraining(*m, data, {.beta2 = nan}, *st), tf::status::invalid_adam_options);
    EXPECT_EQ(tf::DTraining(*m, data, {.eps = -1e-8}, *st), tf::status::invalid_adam_options);
    EXPECT_EQ(tf::DTraining(*m, data, {.eps = nan}, *st), tf::status::invalid_adam_options);
    EXPECT_EQ(tf::DTraining(*m, data, {.weight_decay = nan}, *st),
              tf::status::invalid_adam_options);
    EXPECT_EQ(tf::DTraining(*m, data, {.clip_norm = -1}, *st),
              tf::status::invalid_training_options);
    EXPECT_EQ(tf::ETraining(*e, data, {.lr = 0}, *est), tf::status::invalid_learning_rate);
    const std::vector<std::vector<tf::token>> bad = {{1, 2}, {1, 99}};
    EXPECT_EQ(tf::DTraining(*m, bad, {}, *st), tf::status::token_out_of_range);
    EXPECT_TRUE(tf::bit_equal(*m, *m0));
    EXPECT_EQ(st->step, 0u);
}

// AdamW's decoupled decay leaves γ, β and biases alone unless asked: with a zero gradient the
// Adam term is 0 and only the decay moves θ, by (1 − lr·λ) exactly.
TEST(AdamW, WeightDecaySkipsGainsAndBiasesByDefault) {
    auto m = random_model<D>(5);
    const auto m0 = std::make_unique<D>(*m);
    auto g = std::make_unique<D>();
    auto st = std::make_unique<tf::adam_state<D>>();
    tf::adam_step(*m, *g, *st, {.lr = 0.1, .weight_decay = 0.5, .decay_gains_and_biases = false});
    for_each_named(
        [&](const std::string& name, const auto& after, const auto& before) {
            const std::string leaf = name.substr(name.rfind('.') + 1);
            const bool gain_or_bias = leaf == "gamma" || leaf == "beta" || leaf.starts_with("b_");
            const auto a = leaf_span(after);
            const auto b = leaf_span(before);
            for (std::size_t i = 0; i < a.size(); ++i)
                EXPECT_EQ(a[i], gain_or_bias ? b[i] : b[i] * (1 - 0.1 * 0.5)) << name;
        },
        *m, *m0);
}

TEST(Schedule, WarmupThenCosine) {
    const tf::lr_schedule s{.warmup_steps = 4, .decay_steps = 10, .min_lr = 0.1};
    EXPECT_DOUBLE_EQ(tf::learning_rate(s, 1.0, 0), 0.25);
    EXPECT_DOUBLE_EQ(tf::learning_rate(s, 1.0, 3), 1.0);
    EXPECT_DOUBLE_EQ(tf::learning_rate(s, 1.0, 4), 1.0);
    EXPECT_NEAR(tf::learning_rate(s, 1.0, 9), 0.55, 1e-15);  // halfway: (1 + 0.1)/2
    EXPECT_DOUBLE_EQ(tf::learning_rate(s, 1.0, 14), 0.1);
    EXPECT_DOUBLE_EQ(tf::learning_rate(s, 1.0, 1000), 0.1);
    EXPECT_DOUBLE_EQ(tf::learning_rate({}, 0.3, 7), 0.3);
}

// The loss falls on a small fixed corpus within a bounded number of steps (D, E, ED).
TEST(Training, LossFallsOnAFixedCorpus) {
    using Df = tf::DTransformer<float, cfg>;
    using Ef = tf::ETransformer<float, cfg>;
    using EDf = tf::EDTransformer<float, cfg>;
    std::vector<std::vector<tf::token>> xs;
    for (std::size_t k = 0; k < 8; ++k) {
        std::vector<tf::token> x;
        for (std::size_t t = 0; t < cfg::l_max; ++t)
            x.push_back(static_cast<tf::token>((k + t) % 5));  // a counting pattern
        xs.push_back(x);
    }
    tf::training_options o{.epochs = 60, .batch_size = 4, .lr = 0.02};
    o.reduction = tf::loss_reduction::mean_per_token;
    // the mean loss of the first and of the last 10 steps (E's masks make single steps noisy)
    auto first_last = [](auto& model, auto&& train) {
        std::vector<double> losses;
        EXPECT_EQ(train(model, [&](const tf::step_report& r) { losses.push_back(r.loss); }),
                  tf::status::ok);
        double first = 0, last = 0;
        for (std::size_t i = 0; i < 10; ++i)
            first += losses[i] / 10, last += losses[losses.size() - 1 - i] / 10;
        return std::pair{first, last};
    };
    auto d = std::make_unique<Df>();
    tf::init(*d, 1);
    auto dst = std::make_unique<tf::training_state<Df>>();
    auto [d0, d1] =
        first_last(*d, [&](auto& m, auto obs) { return tf::DTraining(m, xs, o, *dst, obs); });
    EXPECT_LT(d1, 0.25 * d0);
    auto e = std::make_unique<Ef>();
    tf::init(*e, 2);
    auto est = std::make_unique<tf::training_state<Ef>>();
    o.p_mask = 0.3;
    o.epochs = 400;  // BERT at d_e = 6 learns slowly: it first reaches the unigram plateau
    o.lr = 0.005;
    auto [e0, e1] =
        first_last(*e, [&](auto& m, auto obs) { return tf::ETraining(m, xs, o, *est, obs); });
    EXPECT_LT(e1, 1.2);  // below ln 5 ≈ 1.61, the unigram loss of this data
    EXPECT_GT(e0, 2.0);  // from about ln N_V
    std::vector<std::pair<std::vector<tf::token>, std::vector<tf::token>>> pairs;
    for (const auto& x : xs)
        pairs.emplace_back(x, std::vector<tf::token>(x.rbegin(), x.rend()));  // reverse
    auto ed = std::make_unique<EDf>();
    tf::init(*ed, 3);
    auto edst = std::make_unique<tf::training_state<EDf>>();
    auto [ed0, ed1] =
        first_last(*ed, [&](auto& m, auto obs) { return tf::EDTraining(m, pairs, o, *edst, obs); });
    EXPECT_LT(ed1, 0.25 * ed0);
}

}  // namespace
