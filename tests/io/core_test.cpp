// Built with -fno-exceptions -fno-rtti (see CMakeLists.txt): the walk, init, SGD and Adam
// are core code (no heap, no fmt, no iostream), and the io headers' try_* functions work
// without exceptions.
#include <atomic>
#include <cstdlib>
#include <new>

#include <typeformer/params.hpp>
#include <typeformer/train/adam.hpp>
#include <typeformer/train/sgd.hpp>

#if defined(FMT_VERSION) || defined(_GLIBCXX_IOSTREAM)
#error "a core header pulled in fmt or <iostream>"
#endif
#if defined(__cpp_exceptions) || defined(__GXX_RTTI)
#error "this test must be compiled with -fno-exceptions -fno-rtti"
#endif

#include <gtest/gtest.h>

#include <typeformer/io/format.hpp>
#include <typeformer/io/safetensors.hpp>

#include "test_model.hpp"

// Count every allocation of the process. The replacements are never inlined: GCC 12, seeing
// this free() inlined into a std::vector's destructor whose storage came from operator new,
// reports a mismatched new/delete (a false positive: both are these replacements).
static std::atomic<long> allocations{0};
[[gnu::noinline]] void* operator new(std::size_t n) {
    ++allocations;
    if (void* p = std::malloc(n ? n : 1))
        return p;
    std::abort();
}
[[gnu::noinline]] void* operator new(std::size_t n, std::align_val_t a) {
    ++allocations;
    const std::size_t al = static_cast<std::size_t>(a);
    if (void* p = std::aligned_alloc(al, (n + al - 1) / al * al))
        return p;
    std::abort();
}
[[gnu::noinline]] void operator delete(void* p) noexcept {
    std::free(p);
}
[[gnu::noinline]] void operator delete(void* p, std::size_t) noexcept {
    std::free(p);
}
[[gnu::noinline]] void operator delete(void* p, std::align_val_t) noexcept {
    std::free(p);
}
[[gnu::noinline]] void operator delete(void* p, std::size_t, std::align_val_t) noexcept {
    std::free(p);
}

namespace {

namespace tf = typeformer;
namespace tio = typeformer::io;
using model_f = tiny::model<float>;

// Static objects, as on a microcontroller.
model_f theta, grads, other;
tf::adam_state<model_f> state;

TEST(Core, WalkInitSgdAdamDoNotAllocate) {
    const long before = allocations.load();
    tf::init(theta, 1);
    tf::init(grads, 2);
    tf::sgd_step(theta, grads, 0.1f);
    tf::adam_step(theta, grads, state, {.lr = 1e-3, .weight_decay = 0.01});
    tf::adam_step(theta, grads, state,
                  {.lr = 1e-3, .weight_decay = 0.01, .decay = tf::weight_decay_mode::l2});
    tf::copy_params(theta, other);
    const bool same = tf::bit_equal(theta, other);
    const double diff = tf::max_abs_diff(theta, other);
    std::size_t n = 0;
    tf::for_each_param(theta, [&](const tf::param_name& name, auto&) { n += name.size(); });
    tf::zero(grads);
    const long after = allocations.load();
    EXPECT_EQ(after - before, 0);
    EXPECT_TRUE(same);
    EXPECT_EQ(diff, 0.0);
    EXPECT_GT(n, 0u);
    EXPECT_EQ(state.step, 2u);
}

TEST(Core, IoTryFunctionsWorkWithoutExceptions) {
    tf::init(theta, 3);
    const auto image = tio::save_state(theta);
    const auto r =
        tio::try_load_state(other, std::span<const std::byte>(image.data(), image.size()));
    EXPECT_TRUE(r.ok()) << r.message;
    EXPECT_TRUE(tf::bit_equal(theta, other));
    const auto bad = tio::try_load_state(other, std::span<const std::byte>(image.data(), 20));
    EXPECT_EQ(bad.code, tio::status::malformed_header);
    EXPECT_FALSE(tio::summary(theta).empty());
    EXPECT_EQ(fmt::format("{}", tf::d_attn<64>{}), "d_attn<64>");
}

}  // namespace
