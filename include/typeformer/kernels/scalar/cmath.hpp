// The scalar kernels' math, usable in constant evaluation (a forward pass in a static_assert).
//
//   exp, sqrt, erf, tanh, fmax    at run time: <cmath>'s, exactly as before (the scalar and SIMD
//                                 passes compare against them); under std::is_constant_evaluated():
//                                 a series in double, rounded to T, good to ~1e-15 relative
//
// <cmath> is not constexpr in C++20 (GCC folds some builtins, Clang none), so the constant path
// is written out here: exp by range reduction (x = k·ln 2 + r, |r| ≤ ln 2/2) and a Taylor series,
// sqrt by Newton's method, erf by its Taylor series for |x| < 3 and the asymptotic series of erfc
// beyond, tanh from exp.
#pragma once

#include <cmath>
#include <limits>
#include <type_traits>

namespace typeformer::kernels::detail::cmath {

namespace constant {

constexpr double exp(double x) noexcept {
    if (x != x)
        return x;
    if (x > 709.0)
        return std::numeric_limits<double>::infinity();
    if (x < -745.0)
        return 0.0;
    constexpr double ln2 = 0.69314718055994530942;
    const double kf = x / ln2;
    const long k = static_cast<long>(kf < 0 ? kf - 0.5 : kf + 0.5);
    const double r = x - static_cast<double>(k) * ln2;  // |r| ≤ ln 2 / 2
    double term = 1.0, sum = 1.0;
    for (int n = 1; n < 30; ++n) {
        term *= r / n;
        sum += term;
    }
    double scale = 1.0, base = k < 0 ? 0.5 : 2.0;  // 2^k by squaring
    for (long e = k < 0 ? -k : k; e != 0; e >>= 1, base *= base)
        if (e & 1)
            scale *= base;
    return sum * scale;
}

constexpr double sqrt(double x) noexcept {
    if (x != x || x < 0)
        return std::numeric_limits<double>::quiet_NaN();
    if (x == 0 || x == std::numeric_limits<double>::infinity())
        return x;
    double y = x > 1 ? x : 1.0;  // from above: Newton decreases monotonically to √x
    for (int i = 0; i < 2100; ++i) {
        const double next = 0.5 * (y + x / y);
        if (next >= y)
            break;
        y = next;
    }
    return y;
}

constexpr double erf(double x) noexcept {
    if (x != x)
        return x;
    const double a = x < 0 ? -x : x;
    double r;
    if (a < 3.0) {  // 2/√π Σ (−1)ⁿ x^(2n+1) / (n! (2n+1))
        double term = a, sum = a;
        for (int n = 1; n < 80; ++n) {
            term *= -a * a / n;
            sum += term / (2 * n + 1);
        }
        r = 1.12837916709551257390 * sum;
    } else {  // 1 − e^(−x²)/(x√π) (1 − 1/(2x²) + 3/(2x²)² − 15/(2x²)³ …), a few terms
        const double inv = 1.0 / (2.0 * a * a);
        double term = 1.0, sum = 1.0;
        for (int n = 1; n < 8; ++n) {
            term *= -(2 * n - 1) * inv;
            sum += term;
        }
        r = 1.0 - exp(-a * a) / (a * 1.77245385090551602730) * sum;
    }
    return x < 0 ? -r : r;
}

constexpr double tanh(double x) noexcept {
    if (x > 20)
        return 1.0;
    if (x < -20)
        return -1.0;
    const double e = exp(2 * x);
    return (e - 1) / (e + 1);
}

}  // namespace constant

template <class T>
constexpr T exp(T x) noexcept {
    if (std::is_constant_evaluated())
        return static_cast<T>(constant::exp(static_cast<double>(x)));
    return std::exp(x);
}
template <class T>
constexpr T sqrt(T x) noexcept {
    if (std::is_constant_evaluated())
        return static_cast<T>(constant::sqrt(static_cast<double>(x)));
    return std::sqrt(x);
}
template <class T>
constexpr T erf(T x) noexcept {
    if (std::is_constant_evaluated())
        return static_cast<T>(constant::erf(static_cast<double>(x)));
    return std::erf(x);
}
template <class T>
constexpr T tanh(T x) noexcept {
    if (std::is_constant_evaluated())
        return static_cast<T>(constant::tanh(static_cast<double>(x)));
    return std::tanh(x);
}
template <class T>
constexpr T fmax(T a, T b) noexcept {
    if (std::is_constant_evaluated())
        return a != a ? b : (b != b ? a : (a < b ? b : a));
    return std::fmax(a, b);
}

}  // namespace typeformer::kernels::detail::cmath
