// Adam / AdamW against PyTorch's torch.optim.Adam / torch.optim.AdamW (the oracle runs in
// tests/io/safetensors_ref.py; parameters and gradients travel as safetensors files). Built twice:
// the host build (options and bias corrections in double) and a device build
// (test_io_optim_device, TYPEFORMER_DEVICE=1: in float, no double), with the same tolerances but
// for the double model's.
#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>

#include <gtest/gtest.h>

#include <typeformer/io/safetensors.hpp>
#include <typeformer/params.hpp>
#include <typeformer/train/adam.hpp>

#include "test_model.hpp"
#include "test_util.hpp"

namespace {

namespace tf = typeformer;
namespace tio = typeformer::io;

struct adam_case {
    const char* torch_kind;  // adam | adamw
    tf::adam_options opt;
    int steps;
};

template <class T>
void check_against_torch(const adam_case& c, double tol) {
    using model_t = tiny::model<T>;
    const auto dir = testutil::scratch_dir();
    const tio::dtype dt = std::is_same_v<T, double> ? tio::dtype::f64 : tio::dtype::f32;

    auto theta = std::make_unique<model_t>();
    tf::init(*theta, 5);
    // Biases and gains start away from 0 and 1 so that weight decay acts on every tensor.
    tf::for_each_param(*theta, [](const tf::param_name& n, auto& p) {
        if (tf::init_kind_of(n.leaf()) != tf::init_kind::normal)
            for (auto& x : p.elems)
                x += static_cast<T>(0.25);
    });
    tio::save(*theta, dir / "init.safetensors", dt);

    auto state = std::make_unique<tf::adam_state<model_t>>();
    auto grads = std::make_unique<model_t>();
    for (int s = 0; s < c.steps; ++s) {
        testutil::fill_normal(*grads, 100 + static_cast<std::uint64_t>(s));
        // Some exact zeros: v stays 0 there and the update is 0/(0 + eps).
        tf::zero(grads->layers[1].mlp.b_2);
        tio::save(*grads, dir / ("grads" + std::to_string(s) + ".safetensors"), dt);
        tf::adam_step(*theta, *grads, *state, c.opt);
    }
    EXPECT_EQ(state->step, static_cast<std::uint64_t>(c.steps));

    const auto o = c.opt;
    ASSERT_EQ(
        testutil::run_reference(
            {"adam", c.torch_kind, (dir / "init.safetensors").string(), (dir / "grads").string(),
             std::to_string(c.steps), (dir / "out.").string(), fmt::format("{:.17g}", o.lr),
             fmt::format("{:.17g}", o.beta1), fmt::format("{:.17g}", o.beta2),
             fmt::format("{:.17g}", o.eps), fmt::format("{:.17g}", o.weight_decay)}),
        0);
    auto ref = std::make_unique<tf::adam_state<model_t>>();
    auto ref_theta = std::make_unique<model_t>();
    tio::load(*ref_theta, dir / "out.params.safetensors");
    tio::load(ref->m, dir / "out.m.safetensors");
    tio::load(ref->v, dir / "out.v.safetensors");

    auto init0 = std::make_unique<model_t>();
    tio::load(*init0, dir / "init.safetensors");
    EXPECT_GT(tf::max_abs_diff(*theta, *init0), c.opt.lr);  // the steps did move θ

    EXPECT_LE(tf::max_abs_diff(*theta, *ref_theta), tol);
    EXPECT_LE(tf::max_abs_diff(state->m, ref->m), tol);
    EXPECT_LE(tf::max_abs_diff(state->v, ref->v), tol);
    if (c.opt.decay != tf::weight_decay_mode::l2) {
        EXPECT_EQ(state->v.layers[1].mlp.b_2(0), T(0));
    }
    if (std::getenv("TYPEFORMER_VERBOSE"))
        fmt::print("theta {:.3g}  m {:.3g}  v {:.3g}\n", tf::max_abs_diff(*theta, *ref_theta),
                   tf::max_abs_diff(state->m, ref->m), tf::max_abs_diff(state->v, ref->v));
}

#if !TYPEFORMER_DEVICE  // (the device build runs the three below: each oracle run costs ~3.5 s)
TEST(Adam, MatchesTorchAdam) {
    check_against_torch<float>({"adam", {.lr = 1e-2}, 6}, 2e-6);
}
#endif

TEST(Adam, MatchesTorchAdamWithL2WeightDecay) {
    check_against_torch<float>({"adam",
                                {.lr = 1e-2,
                                 .beta1 = 0.8,
                                 .beta2 = 0.99,
                                 .eps = 1e-6,
                                 .weight_decay = 0.3,
                                 .decay = tf::weight_decay_mode::l2},
                                5},
                               2e-6);
}

TEST(Adam, MatchesTorchAdamW) {
    check_against_torch<float>({"adamw", {.lr = 2e-2, .weight_decay = 0.5}, 6}, 2e-6);
}

TEST(Adam, MatchesTorchAdamWInDouble) {
    // A device build (test_io_optim_device) takes the options and per-step scalars in float: the
    // oracle gets the same float values of lr, β, λ, so only the roundings of lr/(1 − β1^t),
    // √(1 − β2^t) (an ulp each) and 1 − lr·λ (half an ulp, on θ ≈ 1.25) differ: per step about
    // |θ|·2^-24 + lr·2^-22, over 7 steps under 6e-7.
    check_against_torch<double>({"adamw", {.lr = 1e-2, .beta1 = 0.85, .weight_decay = 0.1}, 7},
                                TYPEFORMER_DEVICE ? 6e-7 : 1e-14);
}

TEST(Adam, FirstStepIsSignTimesLr) {
    // With bias correction, step 1 moves every parameter by lr·g/(|g| + eps·…) ≈ lr·sign(g).
    using model_t = tiny::model<double>;
    auto theta = std::make_unique<model_t>();
    auto before = std::make_unique<model_t>();
    auto grads = std::make_unique<model_t>();
    auto state = std::make_unique<tf::adam_state<model_t>>();
    tf::init(*theta, 1);
    tf::copy_params(*theta, *before);
    testutil::fill_normal(*grads, 2);
    tf::adam_step(*theta, *grads, *state, {.lr = 0.001, .eps = 1e-12});
    tf::for_each_param_zip(
        [](const tf::param_name& n, const auto& t, const auto& b, const auto& g) {
            for (std::size_t i = 0; i < sizeof(t.elems) / sizeof(double); ++i)
                ASSERT_NEAR(t.elems[i] - b.elems[i], -0.001 * (g.elems[i] > 0 ? 1 : -1), 1e-9)
                    << n.view();
        },
        *theta, *before, *grads);
}

}  // namespace
