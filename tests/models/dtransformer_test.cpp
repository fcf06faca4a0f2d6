// Algorithm 10 (DTransformer) and Algorithm 13's loss: P, the loss and every parameter gradient
// against PyTorch autograd (torch_models.py), and against finite differences.
#include <gtest/gtest.h>

#include <vector>

#include "model_cases.hpp"

namespace tf = typeformer;
using namespace typeformer::testing;

namespace {

// d_attn ≠ d_mid ≠ d_e/H, odd sizes, two layers.
struct base {
    static constexpr std::size_t N_V = 13, l_max = 9, L = 2, H = 3, d_e = 10, d_mlp = 14,
                                 d_attn = 4, d_mid = 5;
};
// Every variant at once: RMSnorm, tied W_u = W_eᵀ, sinusoidal W_p, tanh GELU, ε = 0.
struct variants {
    static constexpr std::size_t N_V = 7, l_max = 5, L = 1, H = 1, d_e = 5, d_mlp = 3, d_attn = 2,
                                 d_mid = 7;
    static constexpr auto norm = tf::norm_kind::rms_norm;
    static constexpr bool tied = true;
    static constexpr auto positional = tf::positional_kind::sinusoidal;
    static constexpr auto gelu = tf::gelu_kind::tanh;
    static constexpr double eps = 0.0;
};
// GPT-2's shape rules (d_attn = d_mid = d_e/H), layer norm with ε = 0, tanh GELU, learned W_p.
struct gpt2ish {
    static constexpr std::size_t N_V = 16, l_max = 8, L = 3, H = 2, d_e = 8, d_mlp = 32, d_attn = 4,
                                 d_mid = 4;
    static constexpr auto gelu = tf::gelu_kind::tanh;
    static constexpr double eps = 0.0;
};
// Tied W_u = W_eᵀ alone (layer norm, learned W_p): W_e's gradient from both ends.
struct tied_only {
    static constexpr std::size_t N_V = 9, l_max = 6, L = 2, H = 2, d_e = 6, d_mlp = 7, d_attn = 5,
                                 d_mid = 2;
    static constexpr bool tied = true;
};
// DESIGN.md's `small` benchmark configuration (byte-level edge model), at its full l_max: the
// realistic size, in float, where sums run over 128–512 terms.
struct design_small {
    static constexpr std::size_t N_V = 256, l_max = 128, L = 4, H = 4, d_e = 128, d_mlp = 512,
                                 d_attn = 32, d_mid = 32;
};
// Tiny, for finite differences.
struct tiny {
    static constexpr std::size_t N_V = 6, l_max = 4, L = 2, H = 2, d_e = 4, d_mlp = 5, d_attn = 2,
                                 d_mid = 3;
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
        add_lengths<tf::DTransformer<double, base>>(c, "double_base", 1);
        add_lengths<tf::DTransformer<float, base>>(c, "float_base", 2);
        add_lengths<tf::DTransformer<double, variants>>(c, "double_variants", 3);
        add_lengths<tf::DTransformer<float, variants>>(c, "float_variants", 4);
        add_lengths<tf::DTransformer<double, gpt2ish>>(c, "double_gpt2ish", 5);
        add_lengths<tf::DTransformer<float, gpt2ish>>(c, "float_gpt2ish", 6);
        add_lengths<tf::DTransformer<double, tied_only>>(c, "double_tied_only", 7);
        // weights ~ N(0, 0.1²): trained-model magnitudes at d_e = 128 (0.5 would saturate every
        // softmax); all 128 positions.
        using S = tf::DTransformer<float, design_small>;
        c.push_back(make_case<S>("float_design_small_len128", 8,
                                 sequences::D(random_tokens(128, 256, 808)), 0.1));
        return c;
    }();
    return all;
}

class DTransformerVsTorch : public oracle_test {};

TEST_P(DTransformerVsTorch, LossPAndEveryGradient) {
    check_oracle_case(cases(), "dtransformer", GetParam());
}

INSTANTIATE_TEST_SUITE_P(Algorithm10, DTransformerVsTorch, oracle_range(cases()),
                         case_name(cases()));

TEST(DTransformerGradients, MatchFiniteDifferences) {
    check_finite_differences<tf::DTransformer<double, tiny>>(11, sequences::D({1, 5, 0, 2}));
}

TEST(DTransformerGradients, MatchFiniteDifferencesWithVariants) {
    check_finite_differences<tf::DTransformer<double, tiny_variants>>(12, sequences::D({3, 3, 4}));
}

}  // namespace
