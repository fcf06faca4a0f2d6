// Line 5 of Algorithms 14 and 15: sampling frequencies against the filtered distribution q,
// computed here from its definition (chi-square), τ = 0 as argmax, τ too small for 1/τ as argmax,
// bad options. Built twice: as a host build (sums and draw in double) and as a device build
// (test_infer_sampling_device: TYPEFORMER_DEVICE=1, float only), against the same double oracle.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

#include "infer_support.hpp"

namespace tf = typeformer;
using namespace tf::testing;

namespace {

constexpr std::size_t NV = 12;
const std::vector<float> logits = {1.5f, -0.3f, 0.2f, 2.1f, 0.0f, -1.2f,
                                   0.9f, 0.9f,  -2.f, 1.1f, 0.4f, -0.7f};

// q ∝ exp(logits/τ), then top-k (k largest), then top-p (smallest most-likely-first prefix with
// mass ≥ p of the remaining mass); ties: smaller id first. Written from the definitions, in
// double, independently of sample_token.
std::vector<double> filtered(double tau, std::size_t k, double p) {
    std::vector<double> q(NV);
    for (std::size_t i = 0; i < NV; ++i)
        q[i] = std::exp(logits[i] / tau);
    std::vector<std::size_t> ids(NV);
    std::iota(ids.begin(), ids.end(), 0);
    std::stable_sort(ids.begin(), ids.end(), [&](auto a, auto b) { return q[a] > q[b]; });
    std::vector<double> out(NV, 0.0);
    const std::size_t kk = std::min(k, NV);
    double rest = 0;
    for (std::size_t i = 0; i < kk; ++i)
        rest += q[ids[i]];
    double mass = 0;
    for (std::size_t i = 0; i < kk; ++i) {
        out[ids[i]] = q[ids[i]];
        mass += q[ids[i]];
        if (mass >= p * rest)
            break;
    }
    const double total = std::accumulate(out.begin(), out.end(), 0.0);
    for (auto& v : out)
        v /= total;
    return out;
}

// Pearson's chi-square over the tokens with q > 0, and a sampled token with q = 0 fails at once.
// Critical value at a false-failure probability of about 1e-6 (Wilson–Hilferty, z = 4.75).
void expect_frequencies(const tf::sampling& opt, const std::vector<double>& q) {
    tf::rng gen(1234);
    auto scratch = std::make_unique<tf::sampling_scratch<float, NV>>();
    constexpr int draws = 200000;
    std::vector<int> count(NV, 0);
    for (int n = 0; n < draws; ++n)
        ++count[tf::sample_token<float, NV>(std::span<const float>(logits), opt, gen, *scratch)];
    double chi2 = 0;
    int cells = 0;
    for (std::size_t i = 0; i < NV; ++i) {
        if (q[i] == 0) {
            EXPECT_EQ(count[i], 0) << "token " << i << " is filtered out but was sampled";
            continue;
        }
        const double e = draws * q[i];
        chi2 += (count[i] - e) * (count[i] - e) / e;
        ++cells;
    }
    const double k = cells - 1;
    if (k == 0)
        return;
    const double z = 4.75, a = 2.0 / (9.0 * k);
    const double critical = k * std::pow(1 - a + z * std::sqrt(a), 3);
    EXPECT_LT(chi2, critical) << "tau " << opt.tau << " top_k " << opt.top_k << " top_p "
                              << opt.top_p;
}

TEST(Sampling, FrequenciesMatchTheFilteredDistribution) {
    expect_frequencies({.tau = 1.0f}, filtered(1.0, NV, 1.0));
    expect_frequencies({.tau = 0.5f}, filtered(0.5, NV, 1.0));
    expect_frequencies({.tau = 2.0f}, filtered(2.0, NV, 1.0));
    expect_frequencies({.tau = 1.0f, .top_k = 4}, filtered(1.0, 4, 1.0));
    expect_frequencies({.tau = 1.0f, .top_p = 0.6f}, filtered(1.0, NV, 0.6));
    expect_frequencies({.tau = 0.8f, .top_k = 6, .top_p = 0.7f}, filtered(0.8, 6, 0.7));
    expect_frequencies({.tau = 1.0f, .top_k = 1}, filtered(1.0, 1, 1.0));
}

TEST(Sampling, ZeroTemperatureIsArgmaxAndSmallTemperatureApproachesIt) {
    tf::rng gen(5);
    auto scratch = std::make_unique<tf::sampling_scratch<float, NV>>();
    const auto best =
        static_cast<tf::token>(std::max_element(logits.begin(), logits.end()) - logits.begin());
    for (int n = 0; n < 100; ++n) {
        EXPECT_EQ((tf::sample_token<float, NV>(logits, {.tau = 0.0f}, gen, *scratch)), best);
        EXPECT_EQ((tf::sample_token<float, NV>(logits, {.tau = 1e-3f}, gen, *scratch)), best);
    }
    // a tie goes to the smaller id (ids 6 and 7 share 0.9)
    std::vector<float> tie = {0.9f, 0.1f, 0.9f};
    EXPECT_EQ((tf::sample_token<float, NV>(tie, {.tau = 0.0f}, gen, *scratch)), 0u);
}

// τ below the smallest value whose 1/τ is finite in T samples as τ = 0 (argmax), for any logits:
// before, 1/τ = ∞ made every q NaN and the draw returned the last id. Just above it the exp
// path runs and gives argmax too (every other q underflows to 0).
template <class T>
void expect_argmax_for_tiny_tau() {
    tf::rng gen(11);
    auto scratch = std::make_unique<tf::sampling_scratch<T, NV>>();
    std::vector<T> l(logits.begin(), logits.end());
    std::swap(l[0], l[3]);  // the most likely id is 0 here, the first, not the last
    const float tiny_taus[] = {std::numeric_limits<float>::denorm_min(),
                               1e-40f,
                               2.9e-39f,
                               0x1p-128f,
                               0x1.000008p-128f,
                               2.94e-39f,
                               std::numeric_limits<float>::min(),
                               1e-30f,
                               1e-6f};
    for (const float tau : tiny_taus) {
        ASSERT_EQ(tf::check_sampling({.tau = tau}, NV), tf::status::ok) << tau;
        for (int k = 0; k < 20; ++k)
            EXPECT_EQ((tf::sample_token<T, NV>(l, {.tau = tau}, gen, *scratch)), 0u) << tau;
        EXPECT_EQ(
            (tf::sample_token<T, NV>(l, {.tau = tau, .top_k = 3, .top_p = 0.5f}, gen, *scratch)),
            0u)
            << tau;
    }
}

TEST(Sampling, TemperatureBelowTheFiniteReciprocalIsArgmax) {
    // The boundary in float: 1/τ is finite from the subnormal τ = 0x1.000008p-128 (2.9387373e-39,
    // 2^-128 + 2^-149) on, infinite for the float below it, 2^-128.
    EXPECT_TRUE(std::isinf(1.0f / 0x1p-128f));
    EXPECT_FALSE(std::isinf(1.0f / 0x1.000008p-128f));
    expect_argmax_for_tiny_tau<float>();
    expect_argmax_for_tiny_tau<double>();  // 1/τ of every float τ > 0 is finite in double
}

TEST(Sampling, SeedsAreReproducible) {
    auto scratch = std::make_unique<tf::sampling_scratch<float, NV>>();
    auto run = [&](std::uint64_t seed) {
        tf::rng gen(seed);
        std::vector<tf::token> out;
        for (int n = 0; n < 64; ++n)
            out.push_back(tf::sample_token<float, NV>(logits, {}, gen, *scratch));
        return out;
    };
    EXPECT_EQ(run(9), run(9));
    EXPECT_NE(run(9), run(10));
}

TEST(Sampling, BadOptionsAreReported) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    EXPECT_EQ(tf::check_sampling({.tau = -0.1f}, NV), tf::status::invalid_temperature);
    EXPECT_EQ(tf::check_sampling({.tau = nan}, NV), tf::status::invalid_temperature);
    EXPECT_EQ(tf::check_sampling({.tau = std::numeric_limits<float>::infinity()}, NV),
              tf::status::infinite_temperature);
    EXPECT_STREQ(tf::status_message(tf::status::infinite_temperature),
                 "temperature tau is infinite (q = p^(1/tau) would be uniform): give a finite "
                 "tau >= 0");
    EXPECT_EQ(tf::check_sampling({.top_k = 0}, NV), tf::status::invalid_top_k);
    EXPECT_EQ(tf::check_sampling({.top_k = NV + 1}, NV), tf::status::invalid_top_k);
    EXPECT_EQ(tf::check_sampling({.top_p = 0.0f}, NV), tf::status::invalid_top_p);
    EXPECT_EQ(tf::check_sampling({.top_p = 1.5f}, NV), tf::status::invalid_top_p);
    EXPECT_EQ(tf::check_sampling({.top_p = nan}, NV), tf::status::invalid_top_p);
    EXPECT_EQ(tf::check_sampling({.tau = 0.0f, .top_k = NV, .top_p = 1.0f}, NV), tf::status::ok);
    EXPECT_STREQ(tf::status_message(tf::status::invalid_top_k), "top_k must be between 1 and N_V");
}

}  // namespace
