// tools/typeformer_torch.py: typeformer → PyTorch → typeformer is bit-exact for all three
// architectures (with variants), and the torch.nn.Module's forward equals typeformer's.
#include <cmath>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <typeformer/io/safetensors.hpp>
#include <typeformer/typeformer.hpp>

#include "support/oracle.hpp"
#include "support/paths.hpp"

namespace tf = typeformer;

namespace {

struct d_cfg {  // tied, tanh GELU, another ε, d_attn ≠ d_mid
    static constexpr std::size_t N_V = 20, l_max = 8, L = 2, H = 2, d_e = 12, d_mlp = 24,
                                 d_attn = 5, d_mid = 4;
    static constexpr bool tied = true;
    static constexpr auto gelu = tf::gelu_kind::tanh;
    static constexpr double eps = 1e-6;
};
struct e_cfg {  // RMSnorm, sinusoidal positions, d_f ≠ d_e
    static constexpr std::size_t N_V = 20, l_max = 8, L = 2, H = 3, d_e = 12, d_mlp = 16,
                                 d_attn = 4, d_mid = 4, d_f = 10;
    static constexpr auto norm = tf::norm_kind::rms_norm;
    static constexpr auto positional = tf::positional_kind::sinusoidal;
};
struct ed_cfg {  // the paper's Algorithm 8, L_enc ≠ L_dec
    static constexpr std::size_t N_V = 20, l_max = 8, L_enc = 2, L_dec = 1, H = 2, d_e = 12,
                                 d_mlp = 16, d_attn = 6, d_mid = 6;
};

const std::vector<tf::token> x = {1, 5, 19, 0, 7, 7, 3};
const std::vector<tf::token> z = {4, 2, 11, 9, 16};

std::string csv(const std::vector<tf::token>& t) {
    std::string s;
    for (auto v : t)
        s += (s.empty() ? "" : ",") + std::to_string(v);
    return s;
}

// Every parameter random (init leaves biases 0 and γ 1, which would hide mix-ups).
template <class Model>
void randomise(Model& m) {
    std::mt19937 gen(5);
    std::normal_distribution<float> n(0.0f, 0.5f);
    tf::for_each_param(m, [&](const tf::param_name&, auto& p) {
        for (std::size_t k = 0; k < sizeof(p.elems) / sizeof(p.elems[0]); ++k)
            p.data()[k] = n(gen);
    });
}

template <class Model>
void round_trip(const std::string& tag, const char* gelu, double eps, bool two) {
    auto m = std::make_unique<Model>();
    randomise(*m);
    const std::string dir = typeformer::testing::path_string(TYPEFORMER_TEST_BINARY_DIR);
    const std::string in = dir + "/bridge_" + tag + ".safetensors";
    const std::string back = dir + "/bridge_" + tag + "_back.safetensors";
    const std::string logits = dir + "/bridge_" + tag + ".tfx";
    tf::save(*m, in);
    const std::string cmd =
        typeformer::testing::path_string(TYPEFORMER_PYTHON) + " " +
        typeformer::testing::path_string(TYPEFORMER_TEST_SOURCE_DIR) + "/torch_bridge_ref.py " +
        in + " " + back + " " + logits + " " + gelu + " " + std::to_string(eps) + " " +
        std::to_string(Model::traits::l_max::size) + " " + csv(x) + (two ? " " + csv(z) : "");
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;

    auto again = std::make_unique<Model>();
    tf::zero(*again);
    tf::load(*again, back);
    EXPECT_TRUE(tf::bit_equal(*m, *again)) << tag << ": the round trip changed a parameter";

    const auto ref = tf::testing::read_bundle(logits);
    EXPECT_EQ(ref.at("arch").data.at(0), tag == "D" ? 0 : tag == "E" ? 1 : 2);
    const auto& want = ref.at("logits").data;  // [t, i]
    auto ws = std::make_unique<tf::inference_workspace<Model>>();
    constexpr std::size_t N_V = Model::traits::N_V::size;
    ASSERT_EQ(want.size(), x.size() * N_V);
    auto compare = [&](auto out) {
        int bad = 0;
        for (std::size_t t = 0; t < x.size(); ++t)
            for (std::size_t i = 0; i < N_V; ++i) {
                const double w = want[t * N_V + i], g = out(i, t);
                if (!(std::abs(g - w) <= 1e-4 + 1e-4 * std::abs(w)) && bad++ < 5)
                    ADD_FAILURE() << tag << " logit (" << i << ", " << t << "): " << g << " vs "
                                  << w;
            }
        EXPECT_EQ(bad, 0) << tag;
    };
    if constexpr (Model::sequences == 2)
        compare(tf::logits(*m, z, x, *ws));
    else
        compare(tf::logits(*m, x, *ws));
}

TEST(TorchBridge, DTransformerRoundTripAndForward) {
    round_trip<tf::DTransformer<float, d_cfg>>("D", "tanh", 1e-6, false);
}
TEST(TorchBridge, ETransformerRoundTripAndForward) {
    round_trip<tf::ETransformer<float, e_cfg>>("E", "erf", 1e-5, false);
}
TEST(TorchBridge, EDTransformerRoundTripAndForward) {
    round_trip<tf::EDTransformer<float, ed_cfg>>("ED", "erf", 1e-5, true);
}

}  // namespace
