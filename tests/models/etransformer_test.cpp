// Algorithm 9 (ETransformer, BERT) and Algorithm 12's masked-language-model loss: P, the loss and
// every parameter gradient against PyTorch autograd (torch_models.py), and against finite
// differences. W_u is (N_V, d_f), the fix of the paper's shape slip (docs/algorithms.md).
#include <gtest/gtest.h>

#include <vector>

#include "model_cases.hpp"

namespace tf = typeformer;
using namespace typeformer::testing;

namespace {

// d_f ≠ d_e, d_attn ≠ d_mid ≠ d_e/H, odd sizes, two layers.
struct base {
    static constexpr std::size_t N_V = 13, l_max = 9, L = 2, H = 3, d_e = 10, d_mlp = 14,
                                 d_attn = 4, d_mid = 5, d_f = 7;
};
// RMSnorm, tied W_u = W_eᵀ (so d_f = d_e), sinusoidal W_p, tanh GELU, ε = 0.
struct variants {
    static constexpr std::size_t N_V = 7, l_max = 5, L = 1, H = 1, d_e = 5, d_mlp = 3, d_attn = 2,
                                 d_mid = 7;
    static constexpr auto norm = tf::norm_kind::rms_norm;
    static constexpr bool tied = true;
    static constexpr auto positional = tf::positional_kind::sinusoidal;
    static constexpr auto gelu = tf::gelu_kind::tanh;
    static constexpr double eps = 0.0;
};
// d_f > d_e, layer norm with ε = 0, erf GELU, d_attn = d_mid = d_e/H.
struct wide_head {
    static constexpr std::size_t N_V = 11, l_max = 8, L = 2, H = 2, d_e = 8, d_mlp = 16, d_attn = 4,
                                 d_mid = 4, d_f = 12;
    static constexpr double eps = 0.0;
};
struct tiny {
    static constexpr std::size_t N_V = 6, l_max = 4, L = 2, H = 2, d_e = 4, d_mlp = 5, d_attn = 2,
                                 d_mid = 3, d_f = 3;
};
struct tiny_variants {
    static constexpr std::size_t N_V = 6, l_max = 4, L = 1, H = 2, d_e = 4, d_mlp = 5, d_attn = 3,
                                 d_mid = 2;
    static constexpr auto norm = tf::norm_kind::rms_norm;
    static constexpr bool tied = true;
    static constexpr auto positional = tf::positional_kind::sinusoidal;
    static constexpr auto gelu = tf::gelu_kind::tanh;
};

const std::vector<oracle_case>& cases() {
    static const std::vector<oracle_case> all = [] {
        std::vector<oracle_case> c;
        add_lengths<tf::ETransformer<double, base>>(c, "double_base", 21);
        add_lengths<tf::ETransformer<float, base>>(c, "float_base", 22);
        add_lengths<tf::ETransformer<double, variants>>(c, "double_variants", 23);
        add_lengths<tf::ETransformer<float, variants>>(c, "float_variants", 24);
        add_lengths<tf::ETransformer<double, wide_head>>(c, "double_wide_head", 25);
        add_lengths<tf::ETransformer<float, wide_head>>(c, "float_wide_head", 26);
        // nothing masked: the loss is 0 and so is every gradient
        auto none = masked(6, wide_head::N_V, 27, 0.0);
        for (std::size_t t = 0; t < none.x.size(); ++t) {  // no mask_token anywhere
            if (none.x[t] == tf::mask_token<wide_head::N_V>)
                none.x[t] = 0;
            none.x_tilde[t] = none.x[t];
        }
        c.push_back(
            make_case<tf::ETransformer<double, wide_head>>("double_nothing_masked", 27, none));
        return c;
    }();
    return all;
}

class ETransformerVsTorch : public oracle_test {};

TEST_P(ETransformerVsTorch, LossPAndEveryGradient) {
    check_oracle_case(cases(), "etransformer", GetParam());
}

INSTANTIATE_TEST_SUITE_P(Algorithm9, ETransformerVsTorch, oracle_range(cases()),
                         case_name(cases()));

TEST(ETransformerGradients, MatchFiniteDifferences) {
    check_finite_differences<tf::ETransformer<double, tiny>>(
        31, sequences::E({3, 1, 3, 0}, {2, 1, 4, 0}));
}

TEST(ETransformerGradients, MatchFiniteDifferencesWithVariants) {
    check_finite_differences<tf::ETransformer<double, tiny_variants>>(
        32, sequences::E({3, 5, 3}, {1, 5, 2}));
}

}  // namespace
