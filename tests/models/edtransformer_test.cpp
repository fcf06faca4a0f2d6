// Algorithm 8 (EDTransformer) and Algorithm 11's loss: P, the loss and every parameter gradient
// against PyTorch autograd (torch_models.py), and against finite differences. The context z and
// the primary x have different lengths in every case.
#include <gtest/gtest.h>

#include <vector>

#include "model_cases.hpp"

namespace tf = typeformer;
using namespace typeformer::testing;

namespace {

// L_enc ≠ L_dec, d_attn ≠ d_mid ≠ d_e/H, odd sizes.
struct base {
    static constexpr std::size_t N_V = 13, l_max = 9, L_enc = 2, L_dec = 1, H = 2, d_e = 8,
                                 d_mlp = 11, d_attn = 3, d_mid = 5;
};
// RMSnorm, tied W_u = W_eᵀ, sinusoidal W_p, ε = 0 (gelu does not apply: Algorithm 8 uses ReLU).
struct variants {
    static constexpr std::size_t N_V = 7, l_max = 5, L = 1, H = 1, d_e = 5, d_mlp = 3, d_attn = 2,
                                 d_mid = 7;
    static constexpr auto norm = tf::norm_kind::rms_norm;
    static constexpr bool tied = true;
    static constexpr auto positional = tf::positional_kind::sinusoidal;
    static constexpr double eps = 0.0;
};
// Deeper decoder than encoder, d_attn = d_mid = d_e/H, layer norm with ε = 0.
struct deep_decoder {
    static constexpr std::size_t N_V = 10, l_max = 6, L_enc = 1, L_dec = 3, H = 3, d_e = 9,
                                 d_mlp = 12, d_attn = 3, d_mid = 3;
    static constexpr double eps = 0.0;
};
struct tiny {
    static constexpr std::size_t N_V = 6, l_max = 4, L_enc = 1, L_dec = 2, H = 2, d_e = 4,
                                 d_mlp = 5, d_attn = 2, d_mid = 3;
};
struct tiny_variants {
    static constexpr std::size_t N_V = 6, l_max = 4, L = 1, H = 2, d_e = 4, d_mlp = 5, d_attn = 3,
                                 d_mid = 2;
    static constexpr auto norm = tf::norm_kind::rms_norm;
    static constexpr bool tied = true;
    static constexpr auto positional = tf::positional_kind::sinusoidal;
};

const std::vector<oracle_case>& cases() {
    static const std::vector<oracle_case> all = [] {
        std::vector<oracle_case> c;
        add_lengths<tf::EDTransformer<double, base>>(c, "double_base", 41);
        add_lengths<tf::EDTransformer<float, base>>(c, "float_base", 42);
        add_lengths<tf::EDTransformer<double, variants>>(c, "double_variants", 43);
        add_lengths<tf::EDTransformer<float, variants>>(c, "float_variants", 44);
        add_lengths<tf::EDTransformer<double, deep_decoder>>(c, "double_deep_decoder", 45);
        add_lengths<tf::EDTransformer<float, deep_decoder>>(c, "float_deep_decoder", 46);
        return c;
    }();
    return all;
}

class EDTransformerVsTorch : public oracle_test {};

TEST_P(EDTransformerVsTorch, LossPAndEveryGradient) {
    check_oracle_case(cases(), "edtransformer", GetParam());
}

INSTANTIATE_TEST_SUITE_P(Algorithm8, EDTransformerVsTorch, oracle_range(cases()),
                         case_name(cases()));

TEST(EDTransformerGradients, MatchFiniteDifferences) {
    check_finite_differences<tf::EDTransformer<double, tiny>>(
        51, sequences::ED({4, 0, 2}, {1, 5, 0, 3}));
}

TEST(EDTransformerGradients, MatchFiniteDifferencesWithVariants) {
    check_finite_differences<tf::EDTransformer<double, tiny_variants>>(
        52, sequences::ED({2, 2, 1, 0}, {5, 1}));
}

}  // namespace
