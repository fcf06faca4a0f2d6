// Algorithms 14 (DInference), 15 (EDInference) and fill-mask against loops over the full forward
// pass written here, token by token, as the pseudocode reads.
#include <algorithm>
#include <limits>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "infer_support.hpp"

namespace tf = typeformer;
using namespace tf::testing;

namespace {

using D = tf::DTransformer<double, cfg_plain>;
using ED = tf::EDTransformer<double, cfg_plain>;
using E = tf::ETransformer<double, cfg_plain>;

// Algorithm 14 with τ = 0, literally: P ← DTransformer(x) each step, y = argmax P[:, last].
std::vector<tf::token> greedy_by_full_passes(const D& m, std::vector<tf::token> x,
                                             std::size_t l_gen) {
    auto ws = std::make_unique<tf::inference_workspace<D>>();
    std::vector<tf::token> y;
    for (std::size_t i = 0; i < l_gen; ++i) {
        const auto P = tf::forward(m, x, *ws);
        y.push_back(argmax_column(P, x.size() - 1));
        x.push_back(y.back());
    }
    return y;
}

TEST(DInference, GreedyEqualsArgmaxOverFullForwardPasses) {
    auto m = random_model<D>(51, 1.0);
    auto cache = std::make_unique<tf::kv_cache<D>>();
    tf::rng gen(1);
    const std::vector<tf::token> x = {3, 1, 4};
    const std::size_t l_gen = cfg_plain::l_max - x.size();
    const auto y = tf::DInference(*m, *cache, x, l_gen, {.tau = 0.0f}, gen);
    EXPECT_EQ(y, greedy_by_full_passes(*m, x, l_gen));
    EXPECT_EQ(cache->length(), cfg_plain::l_max - 1);  // the last token is sampled, not appended
}

TEST(DInference, ContextFullIsReportedUnlessASlidingWindowIsAsked) {
    auto m = random_model<D>(52, 1.0);
    auto cache = std::make_unique<tf::kv_cache<D>>();
    tf::rng gen(2);
    const std::vector<tf::token> x = {3, 1, 4, 1, 5};
    std::vector<tf::token> y(20);
    std::size_t n = 0;
    EXPECT_EQ(tf::try_DInference(*m, *cache, x, 20, {.tau = 0.0f}, gen, std::span(y), n),
              tf::status::context_full);
    EXPECT_EQ(n, cfg_plain::l_max - x.size() + 1);  // every position of l_max was used
    // The host form throws, keeping the tokens and naming their count (an invalid_argument too).
    EXPECT_THROW(tf::DInference(*m, *cache, x, 20, {.tau = 0.0f}, gen), std::invalid_argument);
    try {
        tf::DInference(*m, *cache, x, 20, {.tau = 0.0f}, gen);
        ADD_FAILURE() << "no context_full_error";
    } catch (const tf::context_full_error& e) {
        EXPECT_EQ(e.count(), n);
        EXPECT_EQ(e.tokens(), std::vector<tf::token>(y.begin(), y.begin() + n));
        EXPECT_EQ(std::string(e.what()),
                  "DTransformer: the context is full: the prompt's 5 tokens and 7 generated "
                  "reached l_max = 11 before the 20 asked for; the 7 generated tokens are in "
                  "context_full_error::tokens() (context_policy::sliding_window goes on)");
    }

    // Sliding window: every token is the argmax of a full forward pass over the context the cache
    // holds when it is sampled (read through the streaming callback).
    auto ws = std::make_unique<tf::inference_workspace<D>>();
    int checked = 0;
    const auto z = tf::DInference(*m, *cache, x, 20,
                                  {.tau = 0.0f, .when_full = tf::context_policy::sliding_window},
                                  gen, [&](tf::token t) {
                                      const auto ctx = cache->tokens();
                                      const auto P = tf::forward(*m, ctx, *ws);
                                      EXPECT_EQ(t, argmax_column(P, ctx.size() - 1));
                                      ++checked;
                                      return true;
                                  });
    EXPECT_EQ(z.size(), 20u);
    EXPECT_EQ(checked, 20);
}

TEST(DInference, StopTokensCallbacksSeedsAndBadOptions) {
    auto m = random_model<D>(53, 0.1);  // small weights: P is spread, samples vary
    auto cache = std::make_unique<tf::kv_cache<D>>();
    const std::vector<tf::token> x = {2};
    tf::rng g1(7), g2(7), g3(8);
    const auto a = tf::DInference(*m, *cache, x, 8, {}, g1);
    const auto b = tf::DInference(*m, *cache, x, 8, {}, g2);
    const auto c = tf::DInference(*m, *cache, x, 8, {}, g3);
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
    // a stop token ends generation after it is emitted
    const std::vector<tf::token> stop = {a[2]};
    tf::rng g4(7);
    const auto s = tf::DInference(*m, *cache, x, 8, {.stop = stop}, g4);
    const auto first = std::find(a.begin(), a.end(), a[2]) - a.begin();
    EXPECT_EQ(s, std::vector<tf::token>(a.begin(), a.begin() + first + 1));
    // the callback may stop it
    tf::rng g5(7);
    const auto three =
        tf::DInference(*m, *cache, x, 8, {}, g5, [n = 0](tf::token) mutable { return ++n < 3; });
    EXPECT_EQ(three, std::vector<tf::token>(a.begin(), a.begin() + 3));
    // bad options: a status, nothing written
    std::vector<tf::token> y(8, 77);
    std::size_t n = 5;
    tf::rng g6(1);
    EXPECT_EQ(tf::try_DInference(*m, *cache, x, 8, {.tau = -1.0f}, g6, std::span(y), n),
              tf::status::invalid_temperature);
    EXPECT_EQ(tf::try_DInference(*m, *cache, x, 8, {.tau = std::numeric_limits<float>::infinity()},
                                 g6, std::span(y), n),
              tf::status::infinite_temperature);
    EXPECT_THROW(
        tf::DInference(*m, *cache, x, 8, {.tau = std::numeric_limits<float>::infinity()}, g6),
        std::invalid_argument);
    EXPECT_EQ(tf::try_DInference(*m, *cache, x, 8, {.top_k = 0}, g6, std::span(y), n),
              tf::status::invalid_top_k);
    EXPECT_EQ(tf::try_DInference(*m, *cache, x, 9, {}, g6, std::span(y), n),
              tf::status::output_too_small);
    EXPECT_EQ(tf::try_DInference(*m, *cache, std::vector<tf::token>{}, 8, {}, g6, std::span(y), n),
              tf::status::empty_sequence);
    EXPECT_EQ(n, 0u);
    EXPECT_EQ(y, std::vector<tf::token>(8, 77));
}

// Algorithm 15 with τ = 0, literally: x̂ ← [bos]; P ← EDTransformer(z, x̂) each step, until eos.
std::pair<std::vector<tf::token>, bool> ed_greedy_by_full_passes(const ED& m,
                                                                 const std::vector<tf::token>& z) {
    constexpr std::size_t NV = cfg_plain::N_V;
    auto ws = std::make_unique<tf::inference_workspace<ED>>();
    std::vector<tf::token> x = {tf::bos_token<NV>};
    for (;;) {
        const auto P = tf::forward(m, z, x, *ws);
        x.push_back(argmax_column(P, x.size() - 1));
        if (x.back() == tf::eos_token<NV>)
            return {x, true};
        if (x.size() == cfg_plain::l_max + 1)
            return {x, false};
    }
}

TEST(EDInference, GreedyEqualsArgmaxOverFullForwardPassesWithAndWithoutEos) {
    constexpr std::size_t NV = cfg_plain::N_V;
    auto m = random_model<ED>(61, 1.0);
    auto cache = std::make_unique<tf::kv_cache<ED>>();
    tf::rng gen(3);
    const std::vector<tf::token> z = {5, 6, 7, 8};
    auto [expected, found] = ed_greedy_by_full_passes(*m, z);
    std::vector<tf::token> x_hat(cfg_plain::l_max + 1);
    std::size_t n = 0;
    EXPECT_EQ(tf::try_EDInference(*m, *cache, z, {.tau = 0.0f}, gen, std::span(x_hat), n),
              found ? tf::status::ok : tf::status::context_full);
    EXPECT_EQ(std::vector<tf::token>(x_hat.begin(), x_hat.begin() + n), expected);

    // Make eos the first greedy token (swap W_u's rows of eos and of the token chosen first): the
    // sequence is then [bos, eos].
    const tf::token y1 = expected[1];
    if (y1 != tf::eos_token<NV>)
        for (std::size_t c = 0; c < cfg_plain::d_e; ++c)
            std::swap(m->unembedding.W_u(y1, c), m->unembedding.W_u(tf::eos_token<NV>, c));
    const auto short_seq = tf::EDInference(*m, *cache, z, {.tau = 0.0f}, gen);
    EXPECT_EQ(short_seq, (std::vector<tf::token>{tf::bos_token<NV>, tf::eos_token<NV>}));
    EXPECT_EQ(ed_greedy_by_full_passes(*m, z).first, short_seq);
}

// No eos within l_max: the host form throws context_full_error holding x̂ as far as it got.
TEST(EDInference, ContextFullKeepsTheTokens) {
    constexpr std::size_t NV = cfg_plain::N_V;
    auto m = random_model<ED>(62, 1.0);
    // eos is never the argmax: the last layer norm's β puts ≈ 100 into row 0 of X (line 19),
    // which only eos's logit reads, with weight −1 (line 21: logits = W_u X).
    m->decoder.layers[ED::L_dec - 1].ln3.beta(0) = 100.0;
    for (std::size_t v = 0; v < NV; ++v)
        for (std::size_t c = 0; c < cfg_plain::d_e; ++c)
            if (c == 0 || v == tf::eos_token<NV>)
                m->unembedding.W_u(v, c) = v == tf::eos_token<NV> && c == 0 ? -1.0 : 0.0;
    const std::vector<tf::token> z = {5, 6, 7, 8};
    const auto [expected, found] = ed_greedy_by_full_passes(*m, z);
    ASSERT_FALSE(found);
    auto cache = std::make_unique<tf::kv_cache<ED>>();
    tf::rng gen(4);
    try {
        tf::EDInference(*m, *cache, z, {.tau = 0.0f}, gen);
        ADD_FAILURE() << "no context_full_error";
    } catch (const tf::context_full_error& e) {
        EXPECT_EQ(e.tokens(), expected);
        EXPECT_EQ(e.count(), cfg_plain::l_max + 1);
        EXPECT_NE(std::string(e.what()).find("x_hat reached l_max = 11 tokens (bos and 11 "
                                             "generated) without eos; the 12 tokens"),
                  std::string::npos)
            << e.what();
    }
}

TEST(FillMask, TopTokensAreThoseOfTheFullForwardPass) {
    constexpr std::size_t NV = cfg_plain::N_V;
    auto m = random_model<E>(71, 1.0);
    auto ws = std::make_unique<tf::inference_workspace<E>>();
    const tf::token M = tf::mask_token<NV>;
    const std::vector<tf::token> x_tilde = {1, M, 4, 2, M, M, 0};
    const auto got = tf::fill_mask(*m, x_tilde, 3, *ws);
    auto ws2 = std::make_unique<tf::inference_workspace<E>>();
    const auto P = tf::forward(*m, x_tilde, *ws2);
    ASSERT_EQ(got.size(), 3u);
    const std::size_t where[] = {1, 4, 5};
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(got[i].position, where[i]);
        std::vector<tf::token> ids(NV);
        std::iota(ids.begin(), ids.end(), 0);
        std::stable_sort(ids.begin(), ids.end(),
                         [&](auto a, auto b) { return P(a, where[i]) > P(b, where[i]); });
        EXPECT_EQ(got[i].top, std::vector<tf::token>(ids.begin(), ids.begin() + 3));
    }
    EXPECT_THROW(tf::fill_mask(*m, x_tilde, 0, *ws), std::invalid_argument);
}

}  // namespace
