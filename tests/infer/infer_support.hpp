// Shared by the tests/infer binaries: configurations and per-entry comparisons.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <type_traits>

#include <typeformer/infer.hpp>
#include <typeformer/typeformer.hpp>

#include "models/model_support.hpp"

namespace typeformer::testing {

struct cfg_plain {  // the paper's choices; d_attn ≠ d_mid, H·d_mid ≠ d_e
    static constexpr std::size_t N_V = 13, l_max = 11, L = 2, H = 3, d_e = 10, d_mlp = 14,
                                 d_attn = 4, d_mid = 5;
};
struct cfg_variants {  // RMSnorm, tied W_u, sinusoidal W_p, tanh GELU, ε = 0.01
    static constexpr std::size_t N_V = 9, l_max = 8, L = 3, H = 2, d_e = 6, d_mlp = 7, d_attn = 3,
                                 d_mid = 4, L_enc = 2, L_dec = 3;
    static constexpr auto norm = norm_kind::rms_norm;
    static constexpr auto positional = positional_kind::sinusoidal;
    static constexpr bool tied = true;
    static constexpr auto gelu = gelu_kind::tanh;
    static constexpr double eps = 0.01;
};

// |a − b| ≤ atol + rtol·|b| (torch.allclose), b the reference.
inline ::testing::AssertionResult close(double a, double b, double atol, double rtol) {
    if (std::fabs(a - b) <= atol + rtol * std::fabs(b))
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << a << " vs reference " << b << " (|diff| " << std::fabs(a - b) << ")";
}

template <class T>
constexpr double tol = std::is_same_v<T, float> ? 2e-5 : 1e-11;

// Index of the largest entry of column t (the smaller index on ties), computed plainly.
template <class M>
token argmax_column(const M& P, std::size_t t) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < P.rows(); ++i)
        if (P(i, t) > P(best, t))
            best = i;
    return static_cast<token>(best);
}

}  // namespace typeformer::testing
