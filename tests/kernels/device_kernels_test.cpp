// The device layers' portable parts on the host (their assembly and ACLE kernels are tested on
// the cores under QEMU: examples/firmware/kernel_check): kernels/cortexm/math.hpp's exp and GELU
// against std::exp and std::erf in double, the Cortex-M softmax (whole and online) and GELU
// kernels against naive double loops, and the int8-activation products of kernels/scalar/q8.hpp (the references of the
// DSP kernels: gemm_q8a8, and gemm_q8a8_gelu with its GELU tables against std::erf) against the
// float products within the rounding of their codes.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <typeformer/kernels/cortexm/activation.hpp>
#include <typeformer/kernels/cortexm/softmax.hpp>
#include <typeformer/kernels/q8.hpp>

#include "kernel_test_support.hpp"

using namespace tf_test;
namespace math = typeformer::kernels::cortexm::math;
namespace scalar = typeformer::kernels::scalar;

namespace {

TEST(DeviceMath, ExpWithin2p5e7RelativeOfStdExp) {
    double worst = 0;
    for (int i = -2'000'000; i <= 2'000'000; ++i) {
        const float x = static_cast<float>(i) * 4.4e-5f;  // [-88, 88]
        const float got = math::exp(x);
        if (x < -87.33654f) {
            EXPECT_EQ(got, 0.0f) << "x " << x;
            continue;
        }
        const double ref = std::exp(static_cast<double>(x));
        const double rel = std::fabs(got - ref) / ref;
        worst = std::max(worst, rel);
        ASSERT_LE(rel, 2.5e-7) << "x " << x << " got " << got << " ref " << ref;
    }
    EXPECT_GT(worst, 0.0);  // the test sees the polynomial's error
    EXPECT_EQ(math::exp(88.8f), std::numeric_limits<float>::infinity());
    EXPECT_EQ(math::exp(-1e30f), 0.0f);
    EXPECT_TRUE(std::isnan(math::exp(std::numeric_limits<float>::quiet_NaN())));
    EXPECT_EQ(math::exp(0.0f), 1.0f);
}

TEST(DeviceMath, GeluWithin2e7OfTheExactForm) {
    for (int i = -200'000; i <= 200'000; ++i) {
        const float x = static_cast<float>(i) * 1e-4f;  // [-20, 20]
        const float got = math::gelu(x);
        const double xd = x, ref = 0.5 * xd * (1.0 + std::erf(xd / std::sqrt(2.0)));
        ASSERT_LE(std::fabs(got - ref), 2e-7 * (std::fabs(xd) + std::fabs(ref)))
            << "x " << x << " got " << got << " ref " << ref;
        if (x < 0) {
            ASSERT_LE(got, 0.0f) << "GELU keeps its sign, x " << x;
        }
    }
    EXPECT_EQ(math::gelu(1e30f), 1e30f);
    EXPECT_EQ(math::gelu(-1e30f), -0.0f);
    EXPECT_TRUE(std::isnan(math::gelu(std::numeric_limits<float>::quiet_NaN())));
}

TEST(DeviceKernels, GeluAgainstNaiveLoop) {
    for (std::size_t rows : sweep)
        for (std::size_t cols : {1u, 3u}) {
            strided<float> X(rows, cols, 2), Y(rows, cols, 1);
            X.random(-6, 6);
            ref_mat ref(rows, cols);
            for (std::size_t j = 0; j < cols; ++j)
                for (std::size_t i = 0; i < rows; ++i) {
                    const double x = X(i, j);
                    ref(i, j) = 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
                    ref.m(i, j) = std::fabs(x);
                }
            typeformer::kernels::cortexm::gelu(rows, cols, X.data(), X.ld, Y.data(), Y.ld);
            EXPECT_TRUE(close(Y, ref, "gelu rows " + std::to_string(rows)));
        }
}

TEST(DeviceKernels, SoftmaxAgainstNaiveLoopWithAndWithoutMask) {
    for (std::size_t rows : sweep)
        for (std::size_t cols : {1u, 4u, 9u})
            for (const bool causal : {false, true})
                for (const std::ptrdiff_t offset : {0, 2, -3}) {
                    strided<float> S(rows, cols, 3);
                    S.random(-5, 5);
                    const float scale = 0.37f;
                    ref_mat ref(rows, cols);
                    for (std::size_t t = 0; t < cols; ++t) {
                        const std::size_t kept =
                            typeformer::kernels::detail::kept_rows(rows, t, causal, offset);
                        double mx = -1e300, sum = 0;
                        for (std::size_t i = 0; i < kept; ++i)
                            mx = std::max(mx, static_cast<double>(scale) * S(i, t));
                        for (std::size_t i = 0; i < kept; ++i)
                            sum += std::exp(static_cast<double>(scale) * S(i, t) - mx);
                        for (std::size_t i = 0; i < rows; ++i) {
                            ref(i, t) =
                                i < kept ? std::exp(double(scale) * S(i, t) - mx) / sum : 0.0;
                            ref.m(i, t) = ref(i, t);
                        }
                    }
                    typeformer::kernels::cortexm::softmax_columns(rows, cols, scale, causal, offset,
                                                                  S.data(), S.ld);
                    EXPECT_TRUE(close(S, ref, "softmax rows " + std::to_string(rows)));
                    for (std::size_t t = 0; t < cols; ++t)
                        for (std::size_t i =
                                 typeformer::kernels::detail::kept_rows(rows, t, causal, offset);
                             i < rows; ++i)
                            ASSERT_EQ(S(i, t), 0.0f) << "masked entries are exactly 0";
                }
}

// The online softmax's tiles (the tiled attention and the KV cache's step): two tiles of a
// column, each entry exp(scale·S − m') in double, α = exp(m − m'), ℓ and m' the running sum and
// maximum; masked rows exactly 0, a column with no kept row keeps m, ℓ and gets α = 1.
TEST(DeviceKernels, OnlineSoftmaxTilesAgainstNaiveLoop) {
    for (std::size_t rows : sweep)
        for (const bool causal : {false, true})
            for (const std::ptrdiff_t offset : {0, 2, -3}) {
                constexpr std::size_t cols = 4;
                const float scale = 0.37f;
                std::vector<float> m(cols, -std::numeric_limits<float>::infinity()), l(cols, 0.0f),
                    alpha(cols);
                std::vector<double> dm(cols, -INFINITY), dl(cols, 0.0);
                for (int tile = 0; tile < 2; ++tile) {
                    strided<float> S(rows, cols, 3);
                    S.random(-5, 5);
                    ref_mat ref(rows, cols);
                    std::vector<double> dalpha(cols, 1.0);
                    for (std::size_t t = 0; t < cols; ++t) {
                        const std::size_t kept =
                            typeformer::kernels::detail::kept_rows(rows, t, causal, offset);
                        double mx = dm[t], sum = 0;
                        for (std::size_t i = 0; i < kept; ++i)
                            mx = std::max(mx, double(scale) * S(i, t));
                        for (std::size_t i = 0; i < rows; ++i) {
                            ref(i, t) = i < kept ? std::exp(double(scale) * S(i, t) - mx) : 0.0;
                            ref.m(i, t) = ref(i, t);
                            sum += ref(i, t);
                        }
                        if (kept > 0) {
                            dalpha[t] = std::exp(dm[t] - mx);
                            dl[t] = dalpha[t] * dl[t] + sum, dm[t] = mx;
                        }
                    }
                    typeformer::kernels::cortexm::softmax_columns_online(
                        rows, cols, scale, causal, offset, S.data(), S.ld, m.data(), l.data(),
                        alpha.data());
                    EXPECT_TRUE(close(S, ref, "online softmax rows " + std::to_string(rows)));
                    for (std::size_t t = 0; t < cols; ++t) {
                        EXPECT_NEAR(alpha[t], dalpha[t], 1e-5 * (1 + dalpha[t]));
                        EXPECT_NEAR(l[t], dl[t], 1e-5 * (1 + dl[t]));
                        if (std::isfinite(dm[t]))
                            EXPECT_NEAR(m[t], dm[t], 1e-6 * (1 + std::fabs(dm[t])));
                        else
                            EXPECT_EQ(m[t], -std::numeric_limits<float>::infinity());
                        for (std::size_t i =
                                 typeformer::kernels::detail::kept_rows(rows, t, causal, offset);
                             i < rows; ++i)
                            ASSERT_EQ(S(i, t), 0.0f) << "masked entries are exactly 0";
                    }
                }
            }
}

TEST(Q8Activations, RoundHalfEvenIsNearbyint) {
    for (int i = -300'000; i <= 300'000; ++i) {
        const float v = static_cast<float>(i) * 5e-4f;  // many exact halves among them
        ASSERT_EQ(scalar::round_half_even(v), static_cast<std::int32_t>(std::nearbyint(v)))
            << "v " << v;
    }
    EXPECT_EQ(scalar::round_half_even(2.5f), 2);
    EXPECT_EQ(scalar::round_half_even(3.5f), 4);
    EXPECT_EQ(scalar::round_half_even(-2.5f), -2);
    EXPECT_EQ(scalar::round_half_even(-127.0f), -127);
}

TEST(Q8Activations, CodesWithinHalfAStepOfTheInput) {
    for (std::size_t k : sweep) {
        std::vector<float> x(k);
        for (auto& v : x)
            v = static_cast<float>(uniform(-3, 3));
        std::vector<std::int8_t> q(k);
        const float s = scalar::quantize_activation_q8(k, x.data(), q.data());
        double amax = 0;
        for (float v : x)
            amax = std::max(amax, std::fabs(static_cast<double>(v)));
        EXPECT_NEAR(s, amax / 127, amax * 1e-7);
        for (std::size_t p = 0; p < k; ++p) {
            EXPECT_LE(std::abs(int(q[p])), 127);
            EXPECT_LE(std::fabs(static_cast<double>(q[p]) * s - x[p]), s * (0.5 + 1e-5))
                << "k " << k << " p " << p;
        }
    }
    std::vector<float> zeros(5, 0.0f);
    std::vector<std::int8_t> q(5, 1);
    EXPECT_EQ(scalar::quantize_activation_q8(5, zeros.data(), q.data()), 0.0f);
    for (auto c : q)
        EXPECT_EQ(c, 0);
}

// Random int8 weights (m rows of k), their row scales and a bias.
struct q8_weights {
    std::vector<std::int8_t> Q;
    std::vector<float> s, bias;
    q8_weights(std::size_t m, std::size_t k) : Q(m * k), s(m), bias(m) {
        for (auto& q : Q)
            q = static_cast<std::int8_t>(uniform(-127.49, 127.49));
        for (auto& v : s)
            v = static_cast<float>(uniform(0.001, 0.05));
        for (auto& v : bias)
            v = static_cast<float>(uniform(-1, 1));
    }
};

// C ←/+= diag(s)·Q·B with B's columns quantized: within the rounding of B's codes (half a step
// s_x per entry) of the float product diag(s)·Q·B in double, both scale kinds, with the epilogue.
TEST(Q8Activations, ProductWithinTheCodesRoundingOfTheFloatProduct) {
    for (std::size_t m : {1u, 5u, 16u})
        for (std::size_t n : {1u, 3u})
            for (std::size_t k : sweep)
                for (const bool per_tensor : {false, true})
                    for (const bool acc : {false, true}) {
                        const q8_weights w(m, k);
                        const auto& Q = w.Q;
                        const auto& s = w.s;
                        const auto& bias = w.bias;
                        std::vector<std::int8_t> scratch(k);
                        strided<float> B(k, n, 3), C(m, n, 1), R(m, n, 2);
                        B.random(-2, 2), C.random(), R.random();
                        std::vector<double> sx(n, 0.0);
                        for (std::size_t j = 0; j < n; ++j)
                            for (std::size_t p = 0; p < k; ++p)
                                sx[j] = std::max(sx[j], std::fabs(double(B(p, j))) / 127);
                        if (per_tensor)
                            for (std::size_t j = 0; j < n; ++j)
                                sx[j] = *std::max_element(sx.begin(), sx.end());
                        ref_mat ref(m, n);
                        for (std::size_t j = 0; j < n; ++j)
                            for (std::size_t i = 0; i < m; ++i) {
                                double sum = 0, err = 0;
                                for (std::size_t p = 0; p < k; ++p) {
                                    const double w = double(s[i]) * Q[i * k + p];
                                    sum += w * B(p, j);
                                    err += std::fabs(w) * sx[j] * 0.5;  // each code's rounding
                                }
                                const double c0 = acc ? double(C(i, j)) : 0.0;
                                ref(i, j) = c0 + sum + bias[i] + R(i, j);
                                // close() allows rtol·(|ref| + mag): mag carries the codes'
                                // rounding (over rtol) and the float sums' magnitudes
                                ref.m(i, j) = err / rtol<float> + std::fabs(c0) + std::fabs(sum) +
                                              std::fabs(bias[i]) + std::fabs(R(i, j));
                            }
                        const auto ep = typeformer::kernels::gemm_epilogue<float>{}
                                            .with_bias(bias.data())
                                            .with_residual(R.data(), R.ld);
                        scalar::gemm_q8a8(m, n, k, Q.data(), k, s.data(), B.data(), B.ld, C.data(),
                                          C.ld, acc, per_tensor, scratch.data(), ep);
                        EXPECT_TRUE(close(C, ref,
                                          "m " + std::to_string(m) + " n " + std::to_string(n) +
                                              " k " + std::to_string(k)));
                    }
}

// ---- GELU on int8 codes (q8a8's MLP: W_2·GELU(H)) ----

double gelu_exact(double x) {
    return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
}

// Every entry of every table is round_half_even(GELU(q·2^e) / 2^e) with std::erf in double.
TEST(Q8Gelu, TablesAreTheRoundedGeluOfEachCode) {
    for (int e = scalar::gelu_q8_e_min; e <= scalar::gelu_q8_e_max; ++e)
        for (int q = -128; q < 128; ++q) {
            const double y = gelu_exact(std::ldexp(q, e)) / std::ldexp(1.0, e);
            EXPECT_EQ(scalar::gelu_q8_tables<>.t[e - scalar::gelu_q8_e_min][q + 128],
                      static_cast<int>(std::nearbyint(y)))
                << "e " << e << " q " << q << " GELU/step " << y;
        }
}

// The exponent is the least in range with max |h| ≤ 127·2^e; the codes of h follow the rule
// (clamp to int8, NaN to 0) written out with std::nearbyint.
TEST(Q8Gelu, ExponentAndCodesFollowTheRule) {
    for (double amax :
         {0.0, 1e-3, 0.4, 0.49609375, 0.5, 1.0, 3.7, 31.75, 31.76, 100.0, 508.0, 509.0, 1e30}) {
        int want = scalar::gelu_q8_e_min;
        while (want < scalar::gelu_q8_e_max && amax > 127 * std::ldexp(1.0, want))
            ++want;
        EXPECT_EQ(scalar::gelu_q8_exponent(static_cast<float>(amax)), want) << amax;
    }
    const float nan = std::numeric_limits<float>::quiet_NaN();
    const float inf = std::numeric_limits<float>::infinity();
    const std::vector<float> h = {0.0f, 0.3f, -0.3f, 1.0f, -2.5f, 3.99f, nan, inf, -inf, 1e9f};
    for (int e = scalar::gelu_q8_e_min; e <= scalar::gelu_q8_e_max; ++e) {
        std::vector<std::int8_t> codes(h.size());
        scalar::gelu_q8_codes(h.size(), h.data(), e, codes.data());
        for (std::size_t p = 0; p < h.size(); ++p) {
            const double v = std::ldexp(double(h[p]), -e);
            const int q = std::isnan(v) ? 0 : int(std::nearbyint(std::clamp(v, -128.0, 127.0)));
            const int want = int(std::nearbyint(gelu_exact(std::ldexp(q, e)) / std::ldexp(1., e)));
            EXPECT_EQ(codes[p], want) << "e " << e << " h " << h[p];
        }
    }
}

// C ← diag(s)·Q·GELU(H) (+ bias, + residual): within the codes' rounding of the product with the
// exact GELU in double (h's code half a step, GELU' ≤ 1.13; the output's code half a step),
// per-token and per-tensor exponents, every size of the sweep.
TEST(Q8Gelu, ProductWithinTheCodesRoundingOfTheExactGeluProduct) {
    for (std::size_t m : {1u, 5u, 16u})
        for (std::size_t n : {1u, 3u})
            for (std::size_t k : sweep)
                for (const bool per_tensor : {false, true}) {
                    const q8_weights w(m, k);
                    const auto& Q = w.Q;
                    const auto& s = w.s;
                    const auto& bias = w.bias;
                    std::vector<std::int8_t> scratch(k);
                    strided<float> H(k, n, 3), C(m, n, 1), R(m, n, 2);
                    H.random(-4, 4), C.random(), R.random();
                    std::vector<double> step(n, 0.0), amax(n, 0.0);
                    for (std::size_t j = 0; j < n; ++j)
                        for (std::size_t p = 0; p < k; ++p)
                            amax[j] = std::max(amax[j], std::fabs(double(H(p, j))));
                    for (std::size_t j = 0; j < n; ++j) {
                        const double a =
                            per_tensor ? *std::max_element(amax.begin(), amax.end()) : amax[j];
                        int e = scalar::gelu_q8_e_min;
                        while (e < scalar::gelu_q8_e_max && a > 127 * std::ldexp(1.0, e))
                            ++e;
                        step[j] = std::ldexp(1.0, e);
                        if (e > scalar::gelu_q8_e_min) {  // at most twice per_token's step
                            EXPECT_LE(step[j], 2 * a / 127);
                        }
                    }
                    ref_mat ref(m, n);
                    for (std::size_t j = 0; j < n; ++j)
                        for (std::size_t i = 0; i < m; ++i) {
                            double sum = 0, err = 0;
                            for (std::size_t p = 0; p < k; ++p) {
                                const double w = double(s[i]) * Q[i * k + p];
                                sum += w * gelu_exact(H(p, j));
                                err += std::fabs(w) * step[j] * (0.5 * 1.13 + 0.5);
                            }
                            ref(i, j) = sum + bias[i] + R(i, j);
                            ref.m(i, j) = err / rtol<float> + std::fabs(sum) + std::fabs(bias[i]) +
                                          std::fabs(R(i, j));
                        }
                    const auto ep = typeformer::kernels::gemm_epilogue<float>{}
                                        .with_bias(bias.data())
                                        .with_residual(R.data(), R.ld);
                    scalar::gemm_q8a8_gelu(m, n, k, Q.data(), k, s.data(), H.data(), H.ld, C.data(),
                                           C.ld, per_tensor, scratch.data(), ep);
                    EXPECT_TRUE(close(C, ref,
                                      "m " + std::to_string(m) + " n " + std::to_string(n) + " k " +
                                          std::to_string(k)));
                }
}

// The typed product dispatches on the weights' activations type; a one-column input gives the
// same bits with per_token and per_tensor scales.
TEST(Q8Activations, TypedProductPerTokenEqualsPerTensorOnOneColumn) {
    namespace tf = typeformer;
    using R = tf::d_e<12>;
    using K = tf::d_mlp<16>;
    tf::mat<float, R, K> W;
    for (std::size_t i = 0; i < R::size; ++i)
        for (std::size_t j = 0; j < K::size; ++j)
            W(i, j) = static_cast<float>(uniform(-1, 1));
    static tf::q8_mat<R, K, tf::int8_activations<tf::per_token>> a;
    static tf::q8_mat<R, K, tf::int8_activations<tf::per_tensor>> b;
    static tf::q8_mat<R, K> f;
    tf::quantize(W, a), tf::quantize(W, b), tf::quantize(W, f);
    tf::mat<float, K, tf::l_x<1>> x;
    x.resize_cols(1);
    for (std::size_t p = 0; p < K::size; ++p)
        x(p, 0) = static_cast<float>(uniform(-1, 1));
    tf::mat<float, R, tf::l_x<1>> ya, yb, yf;
    ya.resize_cols(1), yb.resize_cols(1), yf.resize_cols(1);
    tf::matmul(a, x, ya), tf::matmul(b, x, yb), tf::matmul(f, x, yf);
    for (std::size_t i = 0; i < R::size; ++i) {
        EXPECT_EQ(ya(i, 0), yb(i, 0));
        EXPECT_NE(ya(i, 0), yf(i, 0)) << "the int8 product is not the float-activation one";
        EXPECT_NEAR(ya(i, 0), yf(i, 0), 0.02);
    }
}

}  // namespace
