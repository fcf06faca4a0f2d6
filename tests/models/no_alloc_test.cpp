// "No allocation in forward, backward or optimiser step": every operator new of this binary is
// counted, and forward, loss_and_grad (forward + backward), sgd_step and adam_step of each
// architecture, and KV-cache decoding (DInference, EDInference), run on caller-owned workspaces
// and caches after set-up, must make none.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

#include <typeformer/typeformer.hpp>

// The replacements below pair malloc/aligned_alloc with free themselves; g++ 12's
// -Wmismatched-new-delete cannot see that once they are inlined into a caller's delete.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

namespace {
long allocations = 0;
}

void* operator new(std::size_t n) {
    ++allocations;
    if (void* p = std::malloc(n ? n : 1))
        return p;
    throw std::bad_alloc();
}
void* operator new(std::size_t n, std::align_val_t a) {
    ++allocations;
    const auto al = static_cast<std::size_t>(a);
    if (void* p = std::aligned_alloc(al, (n + al - 1) / al * al))
        return p;
    throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}
void operator delete(void* p, std::align_val_t) noexcept {
    std::free(p);
}
void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
    std::free(p);
}

namespace tf = typeformer;

namespace {

struct cfg {
    static constexpr std::size_t N_V = 17, l_max = 12, L = 2, H = 3, d_e = 12, d_mlp = 20,
                                 d_attn = 5, d_mid = 7, d_f = 9;
};

// Runs step() once to warm up (nothing should allocate then either, but a first call may touch
// lazily initialised state of the test framework), then counts the allocations of a second run.
template <class Step>
long allocations_of(Step step) {
    step();
    const long before = allocations;
    step();
    return allocations - before;
}

}  // namespace

TEST(NoAllocation, DTransformerForwardBackwardAndSteps) {
    using M = tf::DTransformer<float, cfg>;
    auto m = std::make_unique<M>(), g = std::make_unique<M>();
    auto ws = std::make_unique<tf::training_workspace<M>>();
    auto iws = std::make_unique<tf::inference_workspace<M>>();
    auto adam = std::make_unique<tf::adam_state<M>>();
    tf::init(*m, 1);
    const std::vector<tf::token> x = {1, 2, 3, 4, 5, 6, 7};
    EXPECT_EQ(allocations_of([&] {
                  tf::forward(*m, x, *iws);
                  tf::zero(*g);
                  (void)tf::loss_and_grad(*m, x, *g, *ws);
                  tf::sgd_step(*m, *g, 0.01f);
                  tf::adam_step(*m, *g, *adam, {});
              }),
              0);
}

TEST(NoAllocation, TrainingLoops) {
    using M = tf::DTransformer<float, cfg>;
    using ME = tf::ETransformer<float, cfg>;
    auto m = std::make_unique<M>();
    auto me = std::make_unique<ME>();
    auto st = std::make_unique<tf::training_state<M>>();
    auto est = std::make_unique<tf::training_state<ME>>();
    tf::init(*m, 6);
    tf::init(*me, 7);
    const std::vector<std::vector<tf::token>> data = {{1, 2, 3, 4}, {5, 6, 7}, {8, 9, 10, 11, 12}};
    tf::training_options o{.epochs = 2,
                           .batch_size = 2,
                           .lr = 1e-3,
                           .weight_decay = 0.1,
                           .clip_norm = 1.0,
                           .schedule = {.warmup_steps = 2, .decay_steps = 4}};
    o.bert_replacement = true;
    EXPECT_EQ(allocations_of([&] {
                  st->epoch = 0, est->epoch = 0;
                  (void)tf::DTraining(*m, data, o, *st);
                  (void)tf::ETraining(*me, data, o, *est);
              }),
              0);
}

TEST(NoAllocation, KVCacheDecoding) {
    using M = tf::DTransformer<float, cfg>;
    using MED = tf::EDTransformer<float, cfg>;
    auto m = std::make_unique<M>();
    auto med = std::make_unique<MED>();
    auto cache = std::make_unique<tf::kv_cache<M>>();
    auto ed_cache = std::make_unique<tf::kv_cache<MED>>();
    tf::init(*m, 4);
    tf::init(*med, 5);
    const std::vector<tf::token> x = {1, 2, 3};
    std::vector<tf::token> y(cfg::l_max + 1);
    tf::rng gen(1);
    EXPECT_EQ(allocations_of([&] {
                  std::size_t n = 0;
                  (void)tf::try_DInference(*m, *cache, x, 6, {.top_k = 5, .top_p = 0.9f}, gen,
                                           std::span(y), n);
                  (void)tf::try_EDInference(*med, *ed_cache, x, {}, gen, std::span(y), n);
              }),
              0);
}

TEST(NoAllocation, ETransformerForwardBackwardAndSteps) {
    using M = tf::ETransformer<float, cfg>;
    auto m = std::make_unique<M>(), g = std::make_unique<M>();
    auto ws = std::make_unique<tf::training_workspace<M>>();
    tf::init(*m, 2);
    const tf::token mask = tf::mask_token<cfg::N_V>;
    const std::vector<tf::token> x = {1, 2, 3, 4, 5}, x_tilde = {1, mask, 3, mask, 5};
    EXPECT_EQ(allocations_of([&] {
                  tf::forward(*m, x_tilde, *ws);
                  (void)tf::loss_and_grad(*m, x_tilde, x, *g, *ws);
                  tf::sgd_step(*m, *g, 0.01f);
              }),
              0);
}

TEST(NoAllocation, EDTransformerForwardBackwardAndSteps) {
    using M = tf::EDTransformer<float, cfg>;
    auto m = std::make_unique<M>(), g = std::make_unique<M>();
    auto ws = std::make_unique<tf::training_workspace<M>>();
    tf::init(*m, 3);
    const std::vector<tf::token> z = {1, 2, 3, 4, 5}, x = {6, 7, 8};
    EXPECT_EQ(allocations_of([&] {
                  tf::forward(*m, z, x, *ws);
                  (void)tf::loss_and_grad(*m, z, x, *g, *ws);
                  tf::sgd_step(*m, *g, 0.01f);
              }),
              0);
}

// The counter itself works: a test that cannot fail proves nothing.
TEST(NoAllocation, TheCounterSeesAnAllocation) {
    static std::unique_ptr<int> kept;  // escapes, so the allocation cannot be elided
    EXPECT_EQ(allocations_of([] { kept = std::make_unique<int>(3); }), 1);
}

// footprint<Model>.parameters is sizeof(Model); here it is bounded independently by the walk's
// parameter count: the scalars themselves, plus at most one 64-byte alignment pad per tensor
// (and per nested struct, bounded by the same count).
TEST(Footprint, ParametersAreTheScalarsPlusAlignmentPadding) {
    using M = tf::DTransformer<float, cfg>;
    constexpr auto bytes = tf::footprint<M>.parameters;
    constexpr std::size_t scalars = tf::parameter_count<M> * sizeof(float);
    constexpr std::size_t pads = 2 * 64 * tf::parameter_tensor_count<M>;
    EXPECT_GE(bytes, scalars);
    EXPECT_LE(bytes, scalars + pads);
    EXPECT_EQ(tf::footprint<M>.gradients, bytes);  // gradients have the model's type
}
