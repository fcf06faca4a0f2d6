// What a device build (TYPEFORMER_DEVICE=1: this binary) computes without double: sinusoidal
// positions in float arithmetic (nn/embedding.hpp) against §5's formula evaluated plainly in
// long double, and Adam's 1 − β^t in two-float arithmetic (train/adam.hpp) against std::pow in double.
// The sampler's device build is tested by sampling_test.cpp, compiled into this binary too.
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include <typeformer/train/adam.hpp>

#include "infer_support.hpp"

namespace tf = typeformer;

namespace {

static_assert(TYPEFORMER_DEVICE == 1, "this binary is the device build (tests/infer/CMakeLists)");
static_assert(std::is_same_v<tf::step_real, float>);
static_assert(std::is_same_v<decltype(tf::adam_options{}.lr), float>);

// W_p[r, t] of §5 (1-based row 2i−1: sin, 2i: cos; odd d_e continues with sin), long double.
long double paper_sinusoid(std::size_t d_e, std::size_t l_max, std::size_t r, std::size_t col) {
    const long double i = static_cast<long double>(r / 2 + 1);
    const long double angle =
        static_cast<long double>(col + 1) / std::pow(static_cast<long double>(l_max), 2 * i / d_e);
    return r % 2 == 0 ? std::sin(angle) : std::cos(angle);
}

// embed() with W_e = 0 adds W_p alone: within 2.5e-7 of the formula (two float ulps at 1),
// where the naive float formula (float angle, sinf) is off by up to 1e-4 at these positions.
template <class T, std::size_t De, std::size_t Lmax>
void expect_positions(std::size_t first, std::size_t n) {
    using S = tf::nn::sinusoidal_embedding<tf::d_e<De>, tf::l_max<Lmax>>;
    static tf::nn::token_embedding<T, tf::d_e<De>, tf::N_V<3>> zero{};
    static tf::mat<T, tf::d_e<De>, tf::l_x<64>> X;
    X.resize_cols(n);
    embed(zero, S{}, std::vector<tf::token>(n, 0), X, first);
    for (std::size_t c = 0; c < n; ++c)
        for (std::size_t r = 0; r < De; ++r) {
            const long double want = paper_sinusoid(De, Lmax, r, first + c);
            EXPECT_LE(std::fabs(static_cast<long double>(X(r, c)) - want), 2.5e-7L)
                << "d_e " << De << " l_max " << Lmax << " row " << r << " position " << first + c;
            EXPECT_EQ(X(r, c), static_cast<T>(S::value_float(r, first + c)));
        }
}

TEST(Sinusoidal, FloatPositionsMatchThePapersFormula) {
    expect_positions<float, 32, 32>(0, 32);       // the firmware's tiny GPT
    expect_positions<float, 19, 17>(5, 40);       // odd d_e, positions past l_max
    expect_positions<float, 768, 1024>(960, 64);  // GPT-2's size, the last positions
    expect_positions<float, 8, 10>(100000, 16);   // far positions: the phase is exact
    expect_positions<double, 48, 32>(0, 32);      // T = double: the same float values
}

// 1 − β^t, the bias corrections, within an ulp of float of double's (β the float option).
TEST(Adam, BiasCorrectionInFloatIsWithinAnUlp) {
    for (const float beta : {0.9f, 0.99f, 0.999f, 0.9999f, 0.95f, 0.5f, 0.1f, 0.0f})
        for (std::uint64_t t = 1; t < 30000000; t = t * 5 / 4 + 1) {
            const double want = 1.0 - std::pow(static_cast<double>(beta), static_cast<double>(t));
            const double got = tf::detail::adam_bias_correction(beta, t);
            EXPECT_LE(std::fabs(got - want), 0x1p-23 * want)  // an ulp of float
                << "beta " << beta << " t " << t;
        }
}

}  // namespace
