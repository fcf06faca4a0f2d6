// The KV cache's P column equals the full forward pass's, at every position up to l_max.
#include <memory>
#include <vector>

#include "infer_support.hpp"

namespace tf = typeformer;
using namespace tf::testing;

namespace {

// Appends x token by token and compares each step's logits with column t of logits(model, x)
// computed by the full forward pass (Algorithm 10 over the whole sequence).
template <class Model>
void expect_decoder_matches_full_pass(std::uint64_t seed) {
    using T = typename Model::value_type;
    constexpr std::size_t NV = Model::N_V::size, l_max = Model::l_max::size;
    auto m = random_model<Model>(seed);
    auto ws = std::make_unique<tf::inference_workspace<Model>>();
    auto cache = std::make_unique<tf::kv_cache<Model>>();
    const auto x = random_tokens(l_max, NV, seed + 1);
    const auto full = tf::logits(*m, x, *ws);  // (N_V, l_max)
    for (std::size_t t = 0; t < l_max; ++t) {
        ASSERT_EQ(tf::try_append(*m, *cache, x[t]), tf::status::ok);
        ASSERT_EQ(cache->length(), t + 1);
        const auto step = tf::logits(*cache);
        for (std::size_t i = 0; i < NV; ++i)
            EXPECT_TRUE(close(step[i], full(i, t), tol<T>, tol<T>))
                << "position " << t << " id " << i;
    }
    // Full: the next token is refused and nothing changes.
    EXPECT_EQ(tf::try_append(*m, *cache, 0), tf::status::context_full);
    EXPECT_EQ(cache->length(), l_max);
    // prefill = reset + the same appends
    ASSERT_EQ(tf::try_prefill(*m, *cache, std::span(x).first(3)), tf::status::ok);
    EXPECT_EQ(cache->length(), 3u);
    for (std::size_t i = 0; i < NV; ++i)
        EXPECT_TRUE(close(tf::logits(*cache)[i], full(i, 2), tol<T>, tol<T>));
}

TEST(KVCache, DTransformerEqualsFullForwardAtEveryPosition) {
    expect_decoder_matches_full_pass<tf::DTransformer<double, cfg_plain>>(11);
    expect_decoder_matches_full_pass<tf::DTransformer<double, cfg_variants>>(12);
    expect_decoder_matches_full_pass<tf::DTransformer<float, cfg_plain>>(13);
    expect_decoder_matches_full_pass<tf::DTransformer<float, cfg_variants>>(14);
}

template <class Model>
void expect_ed_matches_full_pass(std::uint64_t seed, std::size_t l_z) {
    using T = typename Model::value_type;
    constexpr std::size_t NV = Model::N_V::size, l_max = Model::l_max::size;
    auto m = random_model<Model>(seed);
    auto ws = std::make_unique<tf::inference_workspace<Model>>();
    auto cache = std::make_unique<tf::kv_cache<Model>>();
    const auto z = random_tokens(l_z, NV, seed + 1);
    const auto x = random_tokens(l_max, NV, seed + 2);
    const auto full = tf::logits(*m, z, x, *ws);
    EXPECT_EQ(tf::try_append(*m, *cache, x[0]), tf::status::no_context);
    ASSERT_EQ(tf::try_encode(*m, *cache, z), tf::status::ok);
    for (std::size_t t = 0; t < l_max; ++t) {
        ASSERT_EQ(tf::try_append(*m, *cache, x[t]), tf::status::ok);
        const auto step = tf::logits(*cache);
        for (std::size_t i = 0; i < NV; ++i)
            EXPECT_TRUE(close(step[i], full(i, t), tol<T>, tol<T>))
                << "position " << t << " id " << i;
    }
}

TEST(KVCache, EDTransformerEqualsFullForwardAtEveryPosition) {
    expect_ed_matches_full_pass<tf::EDTransformer<double, cfg_plain>>(21, 7);
    expect_ed_matches_full_pass<tf::EDTransformer<double, cfg_variants>>(22, 8);
    expect_ed_matches_full_pass<tf::EDTransformer<float, cfg_plain>>(23, 1);
    expect_ed_matches_full_pass<tf::EDTransformer<float, cfg_variants>>(24, 5);
}

// A context longer than the default tiles of the forward-only attention (keys 256 on a host,
// 16 with the scalar kernels; queries 128 or 16): two tiles of keys and several blocks of
// queries. The inference workspace's forward and the KV cache, both in tiles with an online
// softmax, against the training workspace's forward, whose attention keeps A and is the path
// tests/models checks against PyTorch.
struct cfg_long {
    static constexpr std::size_t N_V = 11, l_max = tf::nn::detail::attention_tile_keys + 44, L = 2,
                                 H = 2, d_e = 8, d_mlp = 12, d_attn = 4, d_mid = 3;
};

template <class Model>
void expect_tiled_paths_match_training_forward(std::uint64_t seed) {
    using T = typename Model::value_type;
    constexpr std::size_t NV = Model::N_V::size, l_max = Model::l_max::size;
    constexpr bool ed = Model::sequences == 2;
    auto m = random_model<Model>(seed);
    auto train = std::make_unique<tf::training_workspace<Model>>();
    auto infer = std::make_unique<tf::inference_workspace<Model>>();
    auto cache = std::make_unique<tf::kv_cache<Model>>();
    const auto z = random_tokens(l_max - 9, NV, seed + 1);
    const auto x = random_tokens(l_max, NV, seed + 2);
    auto logits = [&](auto& ws) {
        if constexpr (ed)
            return tf::logits(*m, z, x, ws);
        else
            return tf::logits(*m, x, ws);
    };
    const auto want = logits(*train);
    const auto tiled = logits(*infer);
    if constexpr (ed) {
        ASSERT_EQ(tf::try_encode(*m, *cache, z), tf::status::ok);
    }
    for (std::size_t t = 0; t < l_max; ++t) {
        ASSERT_EQ(tf::try_append(*m, *cache, x[t]), tf::status::ok);
        for (std::size_t i = 0; i < NV; ++i) {
            EXPECT_TRUE(close(tiled(i, t), want(i, t), tol<T>, tol<T>))
                << "forward: position " << t << " id " << i;
            EXPECT_TRUE(close(tf::logits(*cache)[i], want(i, t), tol<T>, tol<T>))
                << "KV cache: position " << t << " id " << i;
        }
    }
}

TEST(KVCache, LongContextsInTilesEqualTheUntiledForward) {
    expect_tiled_paths_match_training_forward<tf::DTransformer<double, cfg_long>>(41);
    expect_tiled_paths_match_training_forward<tf::DTransformer<float, cfg_long>>(42);
    expect_tiled_paths_match_training_forward<tf::EDTransformer<double, cfg_long>>(43);
    expect_tiled_paths_match_training_forward<tf::EDTransformer<float, cfg_long>>(44);
}

// The cost is linear: a step computes only its own key and value. After W_k changes, a step
// leaves the cached keys of earlier positions as they were (bit for bit), so its logits differ
// from a full pass that recomputes every key with the new W_k.
TEST(KVCache, AStepDoesNotRecomputeCachedKeysAndValues) {
    using Model = tf::DTransformer<double, cfg_plain>;
    auto m = random_model<Model>(31);
    auto cache = std::make_unique<tf::kv_cache<Model>>();
    auto ws = std::make_unique<tf::inference_workspace<Model>>();
    const auto x = random_tokens(6, cfg_plain::N_V, 32);
    ASSERT_EQ(tf::try_prefill(*m, *cache, std::span(x).first(5)), tf::status::ok);
    const auto K_before = cache->layers[0].K;
    auto m2 = std::make_unique<Model>(*m);
    for (auto& w : leaf_span(m2->layers[0].attn.W_k))
        w *= 1.5;
    ASSERT_EQ(tf::try_append(*m2, *cache, x[5]), tf::status::ok);
    for (std::size_t t = 0; t < 5; ++t)
        for (std::size_t r = 0; r < K_before.rows(); ++r)
            EXPECT_EQ(cache->layers[0].K(r, t), K_before(r, t));
    const auto full2 = tf::logits(*m2, x, *ws);
    double diff = 0;
    for (std::size_t i = 0; i < cfg_plain::N_V; ++i)
        diff = std::max(diff, std::fabs(tf::logits(*cache)[i] - full2(i, 5)));
    EXPECT_GT(diff, 1e-6);  // the old keys were not recomputed with the new W_k
}

TEST(KVCache, BadTokensAndPromptsChangeNothing) {
    using Model = tf::DTransformer<double, cfg_plain>;
    auto m = random_model<Model>(41);
    auto cache = std::make_unique<tf::kv_cache<Model>>();
    const std::vector<tf::token> x = {1, 2, 3};
    ASSERT_EQ(tf::try_prefill(*m, *cache, x), tf::status::ok);
    EXPECT_EQ(tf::try_append(*m, *cache, cfg_plain::N_V), tf::status::token_out_of_range);
    EXPECT_EQ(tf::try_prefill(*m, *cache, {}), tf::status::empty_sequence);
    const std::vector<tf::token> too_long(cfg_plain::l_max + 1, 0);
    EXPECT_EQ(tf::try_prefill(*m, *cache, too_long), tf::status::sequence_too_long);
    const std::vector<tf::token> bad = {1, 99};
    EXPECT_EQ(tf::try_prefill(*m, *cache, bad), tf::status::token_out_of_range);
    EXPECT_EQ(cache->length(), 3u);
    EXPECT_THROW(tf::append(*m, *cache, 99), std::invalid_argument);
    EXPECT_THROW(tf::prefill(*m, *cache, bad), std::invalid_argument);
}

// probabilities(cache, P): the newest position's softmax(logits) into a vec over N_V (a view too),
// against a softmax written out here in long double.
template <class Model>
void expect_probabilities_are_softmax_of_logits(std::uint64_t seed) {
    using T = typename Model::value_type;
    constexpr std::size_t NV = Model::N_V::size;
    auto m = random_model<Model>(seed);
    auto cache = std::make_unique<tf::kv_cache<Model>>();
    const auto x = random_tokens(4, NV, seed + 1);
    ASSERT_EQ(tf::try_prefill(*m, *cache, x), tf::status::ok);
    const auto l = tf::logits(*cache);
    long double top = l[0], sum = 0;
    for (std::size_t i = 1; i < NV; ++i)
        top = std::max<long double>(top, l[i]);
    for (std::size_t i = 0; i < NV; ++i)
        sum += std::exp(static_cast<long double>(l[i]) - top);
    tf::vec<T, typename Model::N_V> P{};
    tf::vec<T, typename Model::N_V> P_view{};
    tf::probabilities(*cache, P);
    tf::probabilities(*cache, P_view.view());
    for (std::size_t i = 0; i < NV; ++i) {
        const double ref =
            static_cast<double>(std::exp(static_cast<long double>(l[i]) - top) / sum);
        EXPECT_TRUE(close(P[i], ref, tol<T>, tol<T>)) << "id " << i;
        EXPECT_EQ(P_view[i], P[i]);
    }
}

TEST(KVCache, ProbabilitiesAreTheSoftmaxOfTheNewestLogits) {
    expect_probabilities_are_softmax_of_logits<tf::DTransformer<double, cfg_plain>>(51);
    expect_probabilities_are_softmax_of_logits<tf::DTransformer<float, cfg_variants>>(52);
    expect_probabilities_are_softmax_of_logits<tf::DTransformer<float, cfg_plain>>(53);
}

}  // namespace
