// "No allocation in forward, backward or optimiser step": every allocation of this binary is
// counted — operator new (all of its forms end in malloc or aligned_alloc here) and malloc,
// calloc, realloc, aligned_alloc, posix_memalign, memalign, valloc and pvalloc, replaced below
// for the whole process — from the FIRST call: forward, loss_and_grad (forward + backward),
// sgd_step and adam_step of each architecture, the training loops, and sampling during KV-cache
// decoding (DInference, EDInference) run on caller-owned workspaces and caches after set-up, and
// must make none. A lazily created (thread_local or static) workspace would be counted.
//
// The malloc family is replaced by forwarding to glibc's own entry points (__libc_malloc, ...),
// so this test needs glibc and is not built under AddressSanitizer (which replaces them too).
#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#include <unistd.h>

#include <typeformer/typeformer.hpp>

// The replacements below pair malloc/aligned_alloc with free themselves; g++ 12's
// -Wmismatched-new-delete cannot see that once they are inlined into a caller's delete.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

namespace {
std::atomic<long> allocations{0};
}

// ---- the C allocator, counted ----
extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
void* __libc_valloc(std::size_t);
void* __libc_pvalloc(std::size_t);
void __libc_free(void*);

void* malloc(std::size_t n) {
    ++allocations;
    return __libc_malloc(n);
}
void* calloc(std::size_t n, std::size_t size) {
    ++allocations;
    return __libc_calloc(n, size);
}
void* realloc(void* p, std::size_t n) {
    ++allocations;
    return __libc_realloc(p, n);
}
void* aligned_alloc(std::size_t al, std::size_t n) {
    ++allocations;
    return __libc_memalign(al, n);
}
void* memalign(std::size_t al, std::size_t n) {
    ++allocations;
    return __libc_memalign(al, n);
}
int posix_memalign(void** out, std::size_t al, std::size_t n) {
    ++allocations;
    if (al < sizeof(void*) || (al & (al - 1)) != 0)
        return EINVAL;
    void* p = __libc_memalign(al, n);
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}
void* valloc(std::size_t n) {
    ++allocations;
    return __libc_valloc(n);
}
void* pvalloc(std::size_t n) {
    ++allocations;
    return __libc_pvalloc(n);
}
void free(void* p) {
    __libc_free(p);
}
}

// ---- operator new on top of it (counted once, by malloc / aligned_alloc) ----
void* operator new(std::size_t n) {
    if (void* p = std::malloc(n ? n : 1))
        return p;
    throw std::bad_alloc();
}
void* operator new(std::size_t n, std::align_val_t a) {
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

// The allocations of step()'s first run (and, as a second look, of a second run: state a first
// run leaves behind must not grow either). Nothing runs before the first call: no warm-up.
template <class Step>
long allocations_of(Step step) {
    const long before = allocations.load();
    step();
    step();
    return allocations.load() - before;
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

// train/step.hpp: in-place SGD, a partial mode's gradient with Adam on it, the loss alone.
TEST(NoAllocation, StepsOfEveryTrainableMode) {
    using M = tf::DTransformer<float, cfg>;
    using L = tf::trainable<M, tf::train_lora<2, tf::lora_target::W_q | tf::lora_target::W_o>>;
    using G = tf::trainable<M, tf::train_gains_biases>;
    auto m = std::make_unique<M>();
    auto lora = std::make_unique<L>(), lora_grads = std::make_unique<L>();
    auto gains = std::make_unique<G>();
    auto adam = std::make_unique<tf::adam_state<L>>();
    auto ws = std::make_unique<tf::step_workspace<M>>();
    auto wsk = std::make_unique<tf::step_workspace<M, tf::train_all, tf::keep_activations>>();
    auto wsl = std::make_unique<tf::step_workspace<M, tf::selection_of<L>>>();
    auto wsg = std::make_unique<tf::step_workspace<M, tf::train_gains_biases>>();
    tf::init(*m, 2);
    tf::init_lora(*lora, 3);
    tf::trainable_from(*m, *gains);
    const std::vector<tf::token> x = {1, 2, 3, 4, 5, 6, 7};
    EXPECT_EQ(allocations_of([&] {
                  (void)tf::sgd_step_in_place(*m, x, 0.01f, *ws);
                  (void)tf::sgd_step_in_place(*m, x, 0.01f, *wsk);
                  (void)tf::sgd_step_in_place(*m, *gains, x, 0.01f, *wsg);
                  tf::zero(*lora_grads);
                  (void)tf::loss_and_grad(*m, *lora, x, *lora_grads, *wsl);
                  tf::adam_step(*lora, *lora_grads, *adam, {});
                  (void)tf::loss(*m, *lora, x, *wsl);
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
    auto adam = std::make_unique<tf::adam_state<M>>();
    tf::init(*m, 2);
    const tf::token mask = tf::mask_token<cfg::N_V>;
    const std::vector<tf::token> x = {1, 2, 3, 4, 5}, x_tilde = {1, mask, 3, mask, 5};
    EXPECT_EQ(allocations_of([&] {
                  tf::forward(*m, x_tilde, *ws);
                  tf::zero(*g);
                  (void)tf::loss_and_grad(*m, x_tilde, x, *g, *ws);
                  tf::sgd_step(*m, *g, 0.01f);
                  tf::adam_step(*m, *g, *adam, {});
              }),
              0);
}

TEST(NoAllocation, EDTransformerForwardBackwardAndSteps) {
    using M = tf::EDTransformer<float, cfg>;
    auto m = std::make_unique<M>(), g = std::make_unique<M>();
    auto ws = std::make_unique<tf::training_workspace<M>>();
    auto adam = std::make_unique<tf::adam_state<M>>();
    tf::init(*m, 3);
    const std::vector<tf::token> z = {1, 2, 3, 4, 5}, x = {6, 7, 8};
    EXPECT_EQ(allocations_of([&] {
                  tf::forward(*m, z, x, *ws);
                  tf::zero(*g);
                  (void)tf::loss_and_grad(*m, z, x, *g, *ws);
                  tf::sgd_step(*m, *g, 0.01f);
                  tf::adam_step(*m, *g, *adam, {});
              }),
              0);
}

// The counter itself works, for every entry point: a test that cannot fail proves nothing.
// (volatile pointers: the calls escape, so the compiler cannot elide them.)
TEST(NoAllocation, TheCounterSeesEveryKindOfAllocation) {
    static std::unique_ptr<int> kept;
    EXPECT_EQ(allocations_of([] { kept = std::make_unique<int>(3); }), 2);
    void* volatile p = nullptr;
    auto count = [&](auto alloc) {
        const long before = allocations.load();
        p = alloc();
        const long n = allocations.load() - before;
        std::free(p);
        return n;
    };
    EXPECT_EQ(count([] { return std::malloc(8); }), 1);
    EXPECT_EQ(count([] { return std::calloc(2, 8); }), 1);
    EXPECT_EQ(count([] { return std::aligned_alloc(64, 64); }), 1);
    EXPECT_EQ(count([] {
                  void* q = nullptr;
                  return posix_memalign(&q, 64, 64) == 0 ? q : nullptr;
              }),
              1);
    void* q = std::malloc(8);
    const long before = allocations.load();
    q = std::realloc(q, 4096);
    EXPECT_EQ(allocations.load() - before, 1);
    std::free(q);
    struct alignas(128) wide {
        char c[128];
    };
    static std::unique_ptr<wide> kept_wide;
    EXPECT_EQ(allocations_of([] { kept_wide = std::make_unique<wide>(); }), 2);
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
