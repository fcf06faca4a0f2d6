// DistributedDataParallel through the bridge (ddp_ref.py): 2 ranks on 127.0.0.1 (gloo, torchrun
// with Debian 12's flags) train a typeformer model for a few SGD steps; the result, loaded here
// with tf::load (its signature checked against the type), equals typeformer's own single-process
// training (loss_and_grad + sgd_step) on the same global batch.
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <typeformer/io/safetensors.hpp>
#include <typeformer/typeformer.hpp>

#include "interop.hpp"

namespace tf = typeformer;

namespace {

struct cfg {  // tanh GELU and another ε: the bridge must take both from the file's signature
    static constexpr std::size_t N_V = 20, l_max = 8, L = 2, H = 2, d_e = 12, d_mlp = 24,
                                 d_attn = 6, d_mid = 6;
    static constexpr bool tied = true;
    static constexpr auto gelu = tf::gelu_kind::tanh;
    static constexpr double eps = 1e-6;
};
using model = tf::DTransformer<float, cfg>;

const std::vector<std::vector<tf::token>> batch = {
    {1, 5, 19, 0, 7, 7, 3}, {4, 2, 11, 9, 16}, {0, 1, 2, 3, 4, 5, 6, 7}, {18, 3, 3, 12}};
constexpr int steps = 3;
constexpr float eta = 0.01f;

std::unique_ptr<model> start() {
    auto m = std::make_unique<model>();
    interop::randomise(*m, 21);
    return m;
}

void setup(interop::python_jobs& jobs) {
    const std::string init = interop::scratch("ddp_init.safetensors");
    tf::save(*start(), init);
    std::string args = "ddp_ref launch " + init + " " + interop::scratch("ddp_out.safetensors") +
                       " " + std::to_string(steps) + " 0.01";
    for (const auto& s : batch) {
        args += ' ';
        for (std::size_t i = 0; i < s.size(); ++i)
            args += (i ? "," : "") + std::to_string(s[i]);
    }
    jobs(args);
}
const bool registered = interop::python_setup(&setup);

TEST(DDP, TwoRanksOnLocalhostEqualOneProcessOnTheGlobalBatch) {
    interop::use_python_setup();
    auto m = start();
    const auto first = start();
    const std::string out = interop::scratch("ddp_out.safetensors");

    // typeformer alone: the gradient of the batch's summed loss, one SGD step at a time
    auto grads = std::make_unique<model>();
    auto ws = std::make_unique<tf::training_workspace<model>>();
    for (int step = 0; step < steps; ++step) {
        tf::zero(*grads);
        for (const auto& s : batch)
            tf::loss_and_grad(*m, s, *grads, *ws);
        tf::sgd_step(*m, *grads, eta);
    }

    auto ddp = std::make_unique<model>();
    tf::load(*ddp, out);
    int bad = 0;
    std::size_t compared = 0;
    tf::for_each_param(
        *ddp, *m, [&](const tf::param_name& name, const auto& got, const auto& want) {
            for (std::size_t k = 0; k < sizeof(got.elems) / sizeof(got.elems[0]); ++k, ++compared) {
                const double g = got.data()[k], w = want.data()[k];
                if (!(std::abs(g - w) <= 1e-5 + 1e-4 * std::abs(w)) && bad++ < 5)
                    ADD_FAILURE() << name.view() << "[" << k << "]: DDP " << g << ", typeformer "
                                  << w;
            }
        });
    EXPECT_EQ(bad, 0);
    EXPECT_EQ(compared, tf::parameter_count<model>);
    EXPECT_FALSE(tf::bit_equal(*ddp, *first));  // the steps moved it
}

}  // namespace
